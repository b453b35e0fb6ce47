// A correct OpenAI Agents agent: the tools need approval (their default), the run stops at
// update_collection, its state is saved as a string (as a server would between requests) and
// resumed from it with RunState.fromString once the shopper decided.
import { type CatalogFunctionTool, finalizeRunBuyLinks } from '@catalogkit/openai-agents';
import { Agent, type Model, RunState, run } from '@openai/agents';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'openai-agents';

const agent: AgentFunction<Model, CatalogFunctionTool[]> = async (
  prompt,
  { model, tools, approve },
) => {
  const shopper = new Agent({
    name: 'Shopper',
    instructions: 'Help the shopper. When a change is not approved, do not retry it.',
    model,
    tools,
  });
  let result = await run(shopper, prompt);
  for (let round = 0; round < 4 && result.interruptions.length > 0; round++) {
    const saved = result.state.toString();
    const state = await RunState.fromString<undefined, typeof shopper>(shopper, saved);
    for (const interruption of state.getInterruptions()) {
      const { approved } = await approve({
        toolName: interruption.name ?? '',
        input: interruption.arguments,
      });
      if (approved) state.approve(interruption);
      else state.reject(interruption);
    }
    result = await run(shopper, state);
  }
  return { text: finalizeRunBuyLinks(result).text };
};

export default agent;
