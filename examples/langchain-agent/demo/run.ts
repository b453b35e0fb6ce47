import {
  type AgentEvent,
  type DemoRunOptions,
  type DemoRunResult,
  finishRunLog,
  loggedApproval,
  type ModelDescription,
  startRunLog,
} from '@catalogkit/example-demo-support';
import { isCatalogToolFailure } from '@catalogkit/langchain';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Serialized } from '@langchain/core/load/serializable';
import { type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { defaultModel, runShoppingAgent } from '../src/agent.js';
import { SCRIPTED_CHAT_MODEL_LABEL, ScriptedShopperChatModel } from './scripted-chat-model.js';

/**
 * The agent's default (real) model when OPENAI_API_KEY is set; otherwise the offline
 * scripted model. A blank key counts as unset, so a `.env` copied from `.env.example` stays
 * offline.
 */
export function chooseModel(): { model: BaseChatModel; description: ModelDescription } {
  if (!process.env.OPENAI_API_KEY?.trim()) {
    return {
      model: new ScriptedShopperChatModel({}),
      description: { scripted: true, label: SCRIPTED_CHAT_MODEL_LABEL },
    };
  }
  const model = defaultModel();
  const id = model instanceof ChatOpenAI ? model.model : model.getName();
  return { model, description: { scripted: false, label: `openai ${id}` } };
}

/** A tool's message as printer events: the call with its arguments, then its result or failure. */
export function toolMessageEvents(message: ToolMessage, input: unknown): AgentEvent[] {
  const toolCallId = message.tool_call_id;
  const toolName = message.name ?? '';
  const artifact: unknown = message.artifact;
  const outcome: AgentEvent = isCatalogToolFailure(artifact)
    ? { type: 'tool-error', toolName, toolCallId, message: artifact.error.message }
    : message.status === 'error'
      ? { type: 'tool-error', toolName, toolCallId, message: message.text }
      : { type: 'tool-result', toolName, toolCallId, output: artifact };
  return [{ type: 'tool-call', toolName, toolCallId, input }, outcome];
}

function parsedArguments(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * Logs each tool call when it ends, next to its result. Awaited, so a step is printed before
 * the run goes on (and before an approval is asked for).
 */
class ToolEventHandler extends BaseCallbackHandler {
  name = 'catalogkit-demo-tool-events';
  private readonly inputs = new Map<string, unknown>();

  constructor(private readonly emit: (event: AgentEvent) => void) {
    super({ _awaitHandler: true });
  }

  override handleToolStart(
    _tool: Serialized,
    // The tool's arguments as JSON.
    input: string,
    _runId: string,
    _parentRunId?: string,
    _tags?: string[],
    _metadata?: Record<string, unknown>,
    _runName?: string,
    toolCallId?: string,
  ): void {
    if (toolCallId) this.inputs.set(toolCallId, parsedArguments(input));
  }

  override handleToolEnd(output: unknown): void {
    if (!ToolMessage.isInstance(output)) return;
    for (const event of toolMessageEvents(output, this.inputs.get(output.tool_call_id)))
      this.emit(event);
  }
}

/** The full results (artifacts) of a tool's successful calls, from the run's messages. */
function outputsOf(messages: BaseMessage[], toolName: string): unknown[] {
  return messages.flatMap((message) =>
    ToolMessage.isInstance(message) &&
    message.name === toolName &&
    message.status !== 'error' &&
    !isCatalogToolFailure(message.artifact)
      ? [message.artifact]
      : [],
  );
}

/** One demo run of the LangChain agent: prints each tool call as it ends and the collection after. */
export async function runDemo(options: DemoRunOptions): Promise<DemoRunResult> {
  const { model, description } = chooseModel();
  const log = startRunLog('LangChain', description, options);
  const { text, steps } = await runShoppingAgent(options.request, {
    model,
    clientOptions: options.connection.clientOptions,
    approve: loggedApproval(options.approver, log),
    callbacks: [new ToolEventHandler((event) => log.emit(event))],
  });
  return finishRunLog(log, options.connection, text, outputsOf(steps, 'update_collection'));
}
