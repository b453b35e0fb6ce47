import { createCatalogTools, finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { finalizeAIMessageBuyLinks } from '@catalogkit/langchain';
import { type CatalogFunctionTool, finalizeRunBuyLinks } from '@catalogkit/openai-agents';
import { type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { ChatOpenAI } from '@langchain/openai';
import { Agent, type Model, run } from '@openai/agents';
import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai';
import type { AgentFunction, Approve } from '../../src/index.js';

/** AI SDK 7's approval callback, answered by the kit's shopper. */
function approval(approve: Approve) {
  return {
    update_collection: async (input: unknown) => {
      const { approved, reason } = await approve({ toolName: 'update_collection', input });
      return { type: approved ? ('approved' as const) : ('denied' as const), reason };
    },
  };
}

/** A well-behaved AI SDK 7 agent: asks before changes, finalizes buy links. */
export const aiSdkAgent: AgentFunction<LanguageModel, ToolSet> = async (
  prompt,
  { model, tools, approve },
) => {
  const result = await generateText({
    model,
    tools,
    prompt,
    stopWhen: isStepCount(8),
    toolApproval: approval(approve),
  });
  return { text: finalizeResultBuyLinks(result).text };
};

/** A well-behaved LangChain agent (a plain tool loop): asks before changes, finalizes buy links. */
export const langChainAgent: AgentFunction<ChatOpenAI, DynamicStructuredTool[]> = async (
  prompt,
  { model, tools, approve },
) => {
  const withTools = model.bindTools(tools);
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let step = 0; step < 8; step++) {
    const reply = await withTools.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      messages.push(await runToolCall(tools, call, approve));
    }
  }
  return { text: String(finalizeAIMessageBuyLinks(messages).message.content) };
};

async function runToolCall(
  tools: DynamicStructuredTool[],
  call: ToolCall,
  approve: Approve,
): Promise<ToolMessage> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  const id = call.id ?? '';
  if (!tool)
    return new ToolMessage({ content: `No tool ${call.name}`, tool_call_id: id, status: 'error' });
  if (tool.metadata?.needsApproval) {
    const { approved, reason } = await approve({ toolName: call.name, input: call.args });
    if (!approved) {
      return new ToolMessage({
        content: `Not approved: ${reason ?? ''}`,
        tool_call_id: id,
        status: 'error',
      });
    }
  }
  return (await tool.invoke({ ...call, type: 'tool_call' })) as ToolMessage;
}

/** A well-behaved OpenAI Agents agent: approves interruptions with the shopper, finalizes links. */
export const openAiAgentsAgent: AgentFunction<Model, CatalogFunctionTool[]> = async (
  prompt,
  { model, tools, approve },
) => {
  const agent = new Agent({ name: 'Shopper', instructions: 'Help the shopper.', model, tools });
  let result = await run(agent, prompt);
  for (let round = 0; round < 4 && result.interruptions.length > 0; round++) {
    for (const interruption of result.interruptions) {
      const { approved } = await approve({
        toolName: interruption.name ?? '',
        input: interruption.arguments,
      });
      if (approved) result.state.approve(interruption);
      else result.state.reject(interruption);
    }
    result = await run(agent, result.state);
  }
  return { text: finalizeRunBuyLinks(result).text };
};

/**
 * The same agent with its own tools in reference mode (the examples' default): the model
 * reads `[[buy:…]]` references, which finalizing turns back into links.
 */
export const aiSdkReferenceAgent: AgentFunction<LanguageModel, ToolSet> = async (
  prompt,
  context,
) => {
  const tools = createCatalogTools({
    clientOptions: context.clientOptions,
    serviceTools: context.serviceTools,
    buyLinks: 'reference',
  });
  return aiSdkAgent(prompt, { ...context, tools: tools as ToolSet });
};
