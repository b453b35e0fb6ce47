// A correct agent that ends every answer with the shop's own help link: it passes with
// `allowedLinks: ['https://help.shop.example']`, and fails without (the link is no buy link).
import { finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';
export const HELP = 'https://help.shop.example/buying';

const agent: AgentFunction<LanguageModel, ToolSet> = async (prompt, { model, tools, approve }) => {
  const result = await generateText({
    model,
    tools,
    prompt,
    stopWhen: isStepCount(8),
    toolApproval: {
      update_collection: async (input: unknown) =>
        (await approve({ toolName: 'update_collection', input })).approved
          ? { type: 'approved' as const }
          : { type: 'denied' as const },
    },
  });
  return { text: `${finalizeResultBuyLinks(result).text}\n\nQuestions? ${HELP}` };
};

export default agent;
