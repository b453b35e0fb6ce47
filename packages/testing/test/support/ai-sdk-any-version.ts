import { createCatalogTools, finalizeResultBuyLinks, toolOutputsOf } from '@catalogkit/ai-sdk';
import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  type ToolResultPart,
  type ToolSet,
} from 'ai';
import type { AgentFunction, Approve, ServiceClientOptions } from '../../src/index.js';
import { aiSdkAgent } from './agents.js';

/** AI SDK 5 asks for OpenAI strict mode through the provider (it has no per-tool `strict`). */
const STRICT = { openai: { strictJsonSchema: true } };

type ToolCall = { toolCallId: string; toolName: string; input: unknown };

/** update_collection as the adapter builds it on AI SDK 5 (typed by shape: the dev `ai` is 7). */
interface UpdateTool {
  execute(input: unknown, options: { toolCallId: string; messages: [] }): Promise<unknown>;
  /** AI SDK 5's form: the output alone. */
  toModelOutput(output: unknown): ToolResultPart['output'];
}

/**
 * The approval-free update_collection that runs approved calls (the adapter's README). One per
 * run: its client remembers an update whose outcome is unknown and refuses an identical repeat,
 * which a new instance per call could not (the kit caught that: the change applied twice).
 */
function approvedUpdates(clientOptions: ServiceClientOptions): UpdateTool {
  const tools = createCatalogTools({
    clientOptions,
    include: ['update_collection'],
    needsApproval: false,
  });
  return tools.update_collection as unknown as UpdateTool;
}

/** Runs the calls the shopper approves; tells the model about the others. */
async function runApproved(
  calls: readonly ToolCall[],
  tool: UpdateTool,
  approve: Approve,
): Promise<ToolResultPart[]> {
  const content: ToolResultPart[] = [];
  for (const call of calls) {
    const part = {
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
    };
    const { approved, reason } = await approve({ toolName: call.toolName, input: call.input });
    if (!approved) {
      content.push({ ...part, output: { type: 'text', value: `Not approved: ${reason ?? ''}` } });
      continue;
    }
    try {
      const output = await tool.execute(call.input, { toolCallId: call.toolCallId, messages: [] });
      content.push({ ...part, output: tool.toModelOutput(output) });
    } catch (error) {
      content.push({ ...part, output: { type: 'error-text', value: (error as Error).message } });
    }
  }
  return content;
}

/**
 * A well-behaved AI SDK agent on AI SDK 5 or 7. On 7 the adapter's update_collection has an
 * `execute` and asks through `toolApproval`; on 5 it has none (5 has no tool approval), so
 * generation stops at the call and the agent runs it once the shopper approves.
 */
export const aiSdkAnyVersionAgent: AgentFunction<LanguageModel, ToolSet> = async (
  prompt,
  context,
) => {
  if (context.tools.update_collection?.execute) return aiSdkAgent(prompt, context);
  const { model, tools, clientOptions, approve } = context;
  const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
  const earlier: { toolName: string; output: unknown }[] = [];
  const updates = approvedUpdates(clientOptions);
  for (let round = 0; ; round++) {
    const result = await generateText({
      model,
      tools,
      messages,
      stopWhen: stepCountIs(8),
      providerOptions: STRICT,
    });
    const pending = result.toolCalls.filter((call) => call.toolName === 'update_collection');
    if (pending.length === 0 || round === 3) {
      return { text: finalizeResultBuyLinks(result, { toolOutputs: earlier }).text };
    }
    earlier.push(...toolOutputsOf(result));
    const content = await runApproved(pending, updates, approve);
    messages.push(...result.response.messages, { role: 'tool', content });
  }
};
