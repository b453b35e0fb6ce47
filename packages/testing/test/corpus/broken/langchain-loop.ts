// The LangChain tool loop the broken LangChain agents share: each differs only in how it runs
// one tool call (`RunCall`), where its one mistake is.
import { finalizeAIMessageBuyLinks } from '@catalogkit/langchain';
import { type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { ChatOpenAI } from '@langchain/openai';
import type { AgentFunction, Approve } from '../../../src/index.js';

/** What a run of one tool call has at hand. */
export interface CallContext {
  tool: DynamicStructuredTool;
  call: ToolCall;
  approve: Approve;
  tools: readonly DynamicStructuredTool[];
}

/** Runs one tool call; the messages it returns go back to the model (the first answers the call). */
export type RunCall = (context: CallContext) => Promise<ToolMessage[]>;

export const invoke = async (tool: DynamicStructuredTool, call: ToolCall) =>
  (await tool.invoke({ ...call, type: 'tool_call' })) as ToolMessage;

export const notApproved = (call: ToolCall, reason?: string) =>
  new ToolMessage({
    content: `Not approved: ${reason ?? 'the shopper declined'}. Do not retry.`,
    tool_call_id: call.id ?? '',
    status: 'error',
  });

/** The correct way: ask the shopper before a change, run it only when approved. */
export const runCallCorrectly: RunCall = async ({ tool, call, approve }) => {
  if (tool.metadata?.needsApproval) {
    const { approved, reason } = await approve({ toolName: call.name, input: call.args });
    if (!approved) return [notApproved(call, reason)];
  }
  return [await invoke(tool, call)];
};

/** A LangChain agent: bind the tools, loop over the model's calls, finalize the buy links. */
export function langChainLoopAgent(
  runCall: RunCall,
): AgentFunction<ChatOpenAI, DynamicStructuredTool[]> {
  return async (prompt, { model, tools, approve }) => {
    const withTools = model.bindTools(tools);
    const messages: BaseMessage[] = [new HumanMessage(prompt)];
    for (let step = 0; step < 8; step++) {
      const reply = await withTools.invoke(messages);
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls) {
        const tool = tools.find((candidate) => candidate.name === call.name)!;
        const [answer] = await runCall({ tool, call, approve, tools });
        if (answer) messages.push(answer);
      }
    }
    return { text: String(finalizeAIMessageBuyLinks(messages).message.content) };
  };
}
