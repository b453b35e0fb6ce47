// A broken AI SDK agent: it builds its own tools from clientOptions alone, so the tools the
// service lists beyond search (get_product, lookup_catalog) never reach the model.
import { createCatalogTools, resolveBuyLinksTransform } from '@catalogkit/ai-sdk';
import { isStepCount, type LanguageModel, streamText, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';

const agent: AgentFunction<LanguageModel, ToolSet> = async (prompt, { model, clientOptions }) => {
  const result = streamText({
    model,
    system: 'You are a shopping assistant. Give buy links exactly as the tools print them.',
    tools: createCatalogTools({ clientOptions, buyLinks: 'reference' }),
    prompt,
    stopWhen: isStepCount(8),
    experimental_transform: resolveBuyLinksTransform(),
  });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return { text };
};

export default agent;
