// A correct AI SDK agent in the plainest style: generateText with the tools the kit gives, the
// shopper asked through toolApproval, buy links finalized.
import { finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';

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
  return { text: finalizeResultBuyLinks(result).text };
};

export default agent;
