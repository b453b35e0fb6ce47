// A correct AI SDK agent that streams: streamText with a system prompt, buy link references
// resolved in the stream, and its UI message stream (what the browser gets) returned in `ui`,
// drained into an array, as the README asks.
import { createCatalogTools, resolveBuyLinksTransform } from '@catalogkit/ai-sdk';
import { isStepCount, type LanguageModel, streamText, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';

const agent: AgentFunction<LanguageModel, ToolSet> = async (
  prompt,
  { model, clientOptions, serviceTools, approve },
) => {
  const result = streamText({
    model,
    system: 'You are a shopping assistant. Give buy links exactly as the tools print them.',
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
  const ui: unknown[] = [];
  for await (const part of result.toUIMessageStream()) ui.push(part);
  return { text: await result.text, ui };
};

export default agent;
