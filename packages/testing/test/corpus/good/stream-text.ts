// A correct AI SDK agent that streams: streamText with a system prompt, its own tools with buy
// link references, resolved in the stream; the answer is the streamed text.
import { createCatalogTools, resolveBuyLinksTransform } from '@catalogkit/ai-sdk';
import { isStepCount, type LanguageModel, streamText, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';

const SYSTEM = 'You are a shopping assistant. Give buy links exactly as the tools print them.';

const agent: AgentFunction<LanguageModel, ToolSet> = async (
  prompt,
  { model, clientOptions, serviceTools, approve },
) => {
  const result = streamText({
    model,
    system: SYSTEM,
    tools: createCatalogTools({ clientOptions, serviceTools, buyLinks: 'reference' }),
    prompt,
    stopWhen: isStepCount(8),
    experimental_transform: resolveBuyLinksTransform(),
    toolApproval: {
      update_collection: async (input: unknown) => {
        const { approved, reason } = await approve({ toolName: 'update_collection', input });
        return { type: approved ? ('approved' as const) : ('denied' as const), reason };
      },
    },
  });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return { text };
};

export default agent;
