// A correct AI SDK agent as a ToolLoopAgent (instructions, tools, approval), as the
// examples/ai-sdk-agent shows it.
import { finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { isStepCount, type LanguageModel, ToolLoopAgent, type ToolSet } from 'ai';
import type { AgentFunction } from '../../../src/index.js';

export const framework = 'ai-sdk';

const agent: AgentFunction<LanguageModel, ToolSet> = async (prompt, { model, tools, approve }) => {
  const shopper = new ToolLoopAgent({
    model,
    instructions: 'You are a shopping assistant. When a change is not approved, do not retry it.',
    tools,
    toolApproval: {
      update_collection: async (input) => {
        const { approved, reason } = await approve({ toolName: 'update_collection', input });
        return { type: approved ? 'approved' : 'denied', reason };
      },
    },
    stopWhen: isStepCount(12),
  });
  const result = await shopper.generate({ prompt });
  return { text: finalizeResultBuyLinks(result).text };
};

export default agent;
