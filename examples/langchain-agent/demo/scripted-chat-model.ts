import {
  type ObservationOutcome,
  type PlannedStep,
  planNextStep,
  type ShopperTranscript,
  type ToolObservation,
} from '@catalogkit/example-demo-support';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** Label shown in the run header. */
export const SCRIPTED_CHAT_MODEL_LABEL = 'scripted shopper (a LangChain BaseChatModel)';

/**
 * How a ToolMessage reads to a model: the catalog tools report failures as "Error: ..."
 * content, and the approval middleware answers a rejection with an error-status message in
 * words (the examples say "not approved").
 */
function outcomeOf(message: ToolMessage, text: string): ObservationOutcome {
  if (message.status === 'error' && /\bnot approved\b|\brejected\b/i.test(text)) return 'denied';
  if (message.status === 'error' || text.startsWith('Error:')) return 'error';
  return 'result';
}

/**
 * Reads the messages LangChain sends the model: the last human message is the request, and
 * each ToolMessage is matched with the tool call that asked for it.
 */
export function transcriptFromMessages(messages: BaseMessage[]): ShopperTranscript {
  const calls = new Map<string, { name: string; args: unknown }>();
  const observations: ToolObservation[] = [];
  let request = '';
  for (const message of messages) {
    if (HumanMessage.isInstance(message)) request = message.text || request;
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) {
        if (call.id) calls.set(call.id, { name: call.name, args: call.args });
      }
    }
    if (ToolMessage.isInstance(message)) {
      const call = calls.get(message.tool_call_id);
      const text = message.text;
      observations.push({
        toolName: message.name ?? call?.name ?? '',
        input: call?.args,
        text,
        outcome: outcomeOf(message, text),
      });
    }
  }
  return { request, observations };
}

/** Tool call ids unique within the conversation: the step number and the call's position. */
function toMessage(step: PlannedStep, stepNumber: number): AIMessage {
  if (step.kind === 'answer') return new AIMessage({ content: step.text });
  return new AIMessage({
    content: '',
    tool_calls: step.calls.map((call, index) => ({
      type: 'tool_call' as const,
      id: `call_${stepNumber}_${index + 1}`,
      name: call.toolName,
      args: call.input,
    })),
  });
}

/**
 * A chat model for offline runs: on every call it reads the conversation (the request and
 * the ToolMessages so far) and deterministically decides the next tool calls or the final
 * answer. The tools, their HTTP requests and their results are real; only the choosing is
 * scripted.
 */
export class ScriptedShopperChatModel extends BaseChatModel {
  _llmType(): string {
    return 'scripted-shopper';
  }

  /** The tools are known by name from the conversation, so binding them changes nothing. */
  override bindTools(_tools: BindToolsInput[]): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const stepNumber = messages.filter((message) => AIMessage.isInstance(message)).length + 1;
    const message = toMessage(planNextStep(transcriptFromMessages(messages)), stepNumber);
    return { generations: [{ text: message.text, message }] };
  }
}
