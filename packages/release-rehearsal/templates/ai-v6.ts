// An AI SDK 6 or 7 application: the catalog tools in generateText, the model scripted with
// ai/test (MockLanguageModelV3 exists in both).
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { checkSearch, toolTextSeen } from './check.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const input = { query: 'trail running shoes', limit: 2, cursor: null, placements: null };
const tools = createCatalogTools({ include: ['search_catalog'] }); // CATALOG_* variables

const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) =>
    prompt.some((message) => message.role === 'tool')
      ? {
          content: [{ type: 'text', text: 'Done.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        }
      : {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call_1',
              toolName: 'search_catalog',
              input: JSON.stringify(input),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        },
});

const result = await generateText({
  model,
  tools,
  prompt: 'Find shoes.',
  stopWhen: stepCountIs(3),
});
const output = result.steps[0]?.toolResults[0]?.output;
const productId = checkSearch(output, toolTextSeen(model.doGenerateCalls[1]?.prompt), 2);
if (result.text !== 'Done.') throw new Error(`the run did not finish: ${result.text}`);
console.log(JSON.stringify({ ok: true, productId }));
