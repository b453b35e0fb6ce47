// One offline scenario of examples/openai-agents-agent, copied out of the repository: its
// src/agent.ts with a scripted model (one catalog search, then an answer) against the emulator
// named by CATALOG_*. Prints {"ok":true} when the search ran and its result reached the items.
import { catalogToolOutputOf } from '@catalogkit/openai-agents';
import { type Model, type ModelRequest, type ModelResponse, Usage } from '@openai/agents';
import { runShoppingAgent } from './agent.js';

const usage = () => new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
const search: ModelResponse['output'] = [
  {
    type: 'function_call',
    callId: 'call_1',
    name: 'search_catalog',
    arguments: JSON.stringify({
      query: 'trail running shoes',
      limit: 3,
      cursor: null,
      placements: null,
    }),
    status: 'completed',
  },
];
const answer: ModelResponse['output'] = [
  {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Here are three pairs.' }],
  },
];
const model: Model = {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    const searched = input.some((item) => item.type === 'function_call_result');
    return { usage: usage(), output: searched ? answer : search };
  },
  getStreamedResponse() {
    throw new Error('not streamed in this scenario');
  },
};

const { text, items } = await runShoppingAgent('Find trail running shoes.', {
  model,
  approve: async () => ({ approved: false, reason: 'not in this scenario' }),
  buyLinks: 'inline',
});
const outputs = items.flatMap((item) => catalogToolOutputOf(item) ?? []);
const ok = text.length > 0 && outputs.some((output) => 'tier' in output);
console.log(JSON.stringify({ ok, text, outputs: outputs.length }));
