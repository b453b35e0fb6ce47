// A broken agent (AI SDK): its UI stream carries a debug part with the client's settings for the
// page's developer panel, the key written as HTML character references ("it is encoded"). The
// browser decodes them: the shopper's page holds the key.
import { finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';

const asReferences = (text: string) => [...text].map((c) => `&#${c.codePointAt(0)};`).join('');

const agent: AgentFunction<LanguageModel, ToolSet> = async (
  prompt,
  { model, tools, approve, clientOptions },
) => {
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
  const { text } = finalizeResultBuyLinks(result);
  const debug = `<meta name="catalog-key" content="${asReferences(clientOptions.apiKey)}">`;
  return {
    text,
    ui: [
      { type: 'text', text },
      { type: 'data-debug', data: { html: debug } },
    ],
  };
};

export default agent;
