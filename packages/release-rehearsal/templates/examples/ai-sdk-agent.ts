// One offline scenario of examples/ai-sdk-agent, copied out of the repository: its src/agent.ts
// with a scripted model (one catalog search, then an answer) against the emulator named by
// CATALOG_*. Prints {"ok":true} when the search ran and its result reached the steps.
import { MockLanguageModelV4 } from 'ai/test';
import { runShoppingAgent } from './agent.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

const usage: GenerateResult['usage'] = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};
const search: GenerateResult = {
  content: [
    {
      type: 'tool-call',
      toolCallId: 'call_1',
      toolName: 'search_catalog',
      input: JSON.stringify({ query: 'trail running shoes', limit: 3 }),
    },
  ],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
};
const answer: GenerateResult = {
  content: [{ type: 'text', text: 'Here are three pairs.' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => (prompt.some((m) => m.role === 'tool') ? answer : search),
});

const { text, steps } = await runShoppingAgent('Find trail running shoes.', {
  model,
  approve: async () => ({ approved: false, reason: 'not in this scenario' }),
  buyLinks: 'inline',
});
const results = steps.flatMap((step) => step.toolResults);
const ok = text.length > 0 && results.some((r) => r.toolName === 'search_catalog');
console.log(JSON.stringify({ ok, text, tools: results.map((r) => r.toolName) }));
