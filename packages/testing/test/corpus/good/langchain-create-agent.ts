// A correct LangChain agent: createAgent with the human-in-the-loop middleware, which stops the
// run before update_collection; the shopper's decision resumes it (a Command).
import { finalizeAIMessageBuyLinks } from '@catalogkit/langchain';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import type { ChatOpenAI } from '@langchain/openai';
import {
  createAgent,
  type HITLRequest,
  type HITLResponse,
  humanInTheLoopMiddleware,
} from 'langchain';
import type { AgentFunction, Approve } from '../../../src/index.js';

export const framework = 'langchain';

async function decide({ actionRequests }: HITLRequest, approve: Approve): Promise<HITLResponse> {
  const decisions: HITLResponse['decisions'] = [];
  for (const { name, args } of actionRequests) {
    const { approved, reason } = await approve({ toolName: name, input: args });
    const message = `Not approved: ${reason ?? 'no reason given'}. Do not retry.`;
    decisions.push(approved ? { type: 'approve' } : { type: 'reject', message });
  }
  return { decisions };
}

const agent: AgentFunction<ChatOpenAI, DynamicStructuredTool[]> = async (
  prompt,
  { model, tools, approve },
) => {
  const shopper = createAgent({
    model,
    systemPrompt: 'You are a shopping assistant. When a change is not approved, do not retry it.',
    tools,
    middleware: [
      humanInTheLoopMiddleware({
        interruptOn: { update_collection: { allowedDecisions: ['approve', 'reject'] } },
      }),
    ],
    checkpointer: new MemorySaver(),
  });
  const config = { configurable: { thread_id: crypto.randomUUID() }, recursionLimit: 40 };
  let state = await shopper.invoke({ messages: [{ role: 'user', content: prompt }] }, config);
  for (let round = 0; round < 3 && state.__interrupt__?.[0]; round++) {
    const resume = await decide(state.__interrupt__[0].value as HITLRequest, approve);
    state = await shopper.invoke(new Command({ resume }), config);
  }
  return { text: finalizeAIMessageBuyLinks(state.messages).text };
};

export default agent;
