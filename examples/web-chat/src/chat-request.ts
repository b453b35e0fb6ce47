import {
  AISDKError,
  convertToModelMessages,
  type ModelMessage,
  safeValidateUIMessages,
  type ToolSet,
  type UIMessage,
} from 'ai';
import { isRecord } from './security/is-record.js';

/** A `POST /api/chat` body that passed every check, ready for `streamText`. */
export interface ChatRequest {
  /** The page's chat id (`useChat` sends it): approvals are bound to it. */
  chatId: string;
  messages: UIMessage[];
}

/** Limits of what a chat request may hold. */
export interface ChatRequestLimits {
  /** Messages in one history (default 200). */
  maxMessages: number;
  /** Characters of one shopper message (default 4,000). */
  maxTextChars: number;
}

type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const FIELDS = new Set(['id', 'messages', 'trigger', 'messageId']);
const TRIGGERS = new Set(['submit-message', 'regenerate-message']);
const MAX_ID_CHARS = 200;
const MAX_REASON_CHARS = 300;

function refuse(reason: string): { ok: false; reason: string } {
  return {
    ok: false,
    reason: reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason,
  };
}

function isShortString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS;
}

/** The envelope `useChat`'s transport sends: `{ id, messages, trigger?, messageId? }`. */
function checkEnvelope(
  body: unknown,
  limits: ChatRequestLimits,
): Checked<{ id: string; messages: unknown[] }> {
  if (!isRecord(body)) return refuse('Send a JSON object { id, messages }.');
  const unknown = Object.keys(body).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0) return refuse(`Unknown fields: ${unknown.slice(0, 5).join(', ')}.`);
  if (!isShortString(body.id)) return refuse(`id: a chat id of 1 to ${MAX_ID_CHARS} characters.`);
  if (body.trigger !== undefined && !TRIGGERS.has(body.trigger as string)) {
    return refuse('trigger: submit-message or regenerate-message.');
  }
  if (body.messageId !== undefined && !isShortString(body.messageId)) {
    return refuse(`messageId: 1 to ${MAX_ID_CHARS} characters.`);
  }
  const { messages } = body;
  if (!Array.isArray(messages) || messages.length === 0 || messages.length > limits.maxMessages) {
    return refuse(`messages: an array of 1 to ${limits.maxMessages} messages.`);
  }
  return { ok: true, value: { id: body.id, messages } };
}

/**
 * What the page may send in each message: the shopper's text, and the assistant's own
 * earlier parts. No system messages (the server's instructions are the only ones), no
 * files or URLs (the server would download them), no data parts.
 */
function checkMessage(
  message: unknown,
  index: number,
  toolNames: ReadonlySet<string>,
  limits: ChatRequestLimits,
): string | undefined {
  if (!isRecord(message)) return `messages[${index}]: an object.`;
  const { role, parts } = message;
  if (role === 'system')
    return `messages[${index}].role: system messages come from the server, not the page.`;
  if (role !== 'user' && role !== 'assistant') return `messages[${index}].role: user or assistant.`;
  if (!Array.isArray(parts)) return `messages[${index}].parts: an array.`;
  for (const [at, part] of parts.entries()) {
    const where = `messages[${index}].parts[${at}]`;
    const type = isRecord(part) && typeof part.type === 'string' ? part.type : undefined;
    if (type === 'text') {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string' && text.length > limits.maxTextChars) {
        return `${where}.text: at most ${limits.maxTextChars} characters.`;
      }
      continue;
    }
    if (role === 'user') return `${where}.type: a shopper message holds text parts only.`;
    const allowed =
      type === 'step-start' ||
      type === 'reasoning' ||
      (type?.startsWith('tool-') && toolNames.has(type.slice(5)));
    if (!allowed)
      return `${where}.type: ${type === undefined ? 'missing' : 'not a part this chat sends'}.`;
  }
  return undefined;
}

type ToolPart = Record<string, unknown> & { type: string };

/** The tool parts of the history, with where each is. */
function* toolParts(messages: unknown[]): Generator<{ part: ToolPart; index: number; at: number }> {
  for (const [index, message] of messages.entries()) {
    const parts = (message as { parts: unknown[] }).parts;
    for (const [at, part] of parts.entries()) {
      if (isRecord(part) && typeof part.type === 'string' && part.type.startsWith('tool-')) {
        yield { part: part as ToolPart, index, at };
      }
    }
  }
}

/**
 * The tool parts a history `useChat` keeps can hold, and only where it holds them. Every
 * tool call has its result, except the calls of the last message the shopper has just
 * approved or denied (`approval-responded`); questions left unanswered
 * (`approval-requested`) only before the shopper's last message (the AI SDK drops them);
 * each tool call and approval once; no provider-executed calls (this chat has none: the
 * AI SDK would take a client's word that such a call already ran). Anything else would
 * have the AI SDK run a call the approval check did not see, or fail after the answer
 * has started.
 */
function checkToolParts(messages: unknown[]): string | undefined {
  let lastUser = -1;
  for (const [index, message] of messages.entries()) {
    if ((message as { role: unknown }).role === 'user') lastUser = index;
  }
  const toolCallIds = new Set<string>();
  const approvalIds = new Set<string>();
  for (const { part, index, at } of toolParts(messages)) {
    const where = `messages[${index}].parts[${at}]`;
    const { state, toolCallId, providerExecuted, approval } = part;
    if (providerExecuted !== undefined && providerExecuted !== false) {
      return `${where}.providerExecuted: this chat's tools all run on the server.`;
    }
    if (state === 'input-streaming' || state === 'input-available') {
      return `${where}.state: a tool call without its result; send the history as the page got it.`;
    }
    if (state === 'approval-requested' && index > lastUser) {
      return `${where}.state: an approval request not answered yet.`;
    }
    if (state === 'approval-responded' && index !== messages.length - 1) {
      return `${where}.state: only the last message may answer an approval.`;
    }
    if (typeof toolCallId === 'string') {
      if (toolCallIds.has(toolCallId)) return `${where}.toolCallId: used by another part.`;
      toolCallIds.add(toolCallId);
    }
    const approvalId = isRecord(approval) ? approval.id : undefined;
    if (typeof approvalId === 'string') {
      if (approvalIds.has(approvalId)) return `${where}.approval.id: used by another part.`;
      approvalIds.add(approvalId);
    }
  }
  return undefined;
}

/**
 * Checks a `POST /api/chat` body completely before anything runs: the envelope, each
 * message (see {@link checkMessage}), the tool parts across the history (see
 * {@link checkToolParts}), then the AI SDK's own validation of UI messages (tool inputs
 * against the tools' schemas). Every refusal names the field, for a 400.
 */
export async function parseChatRequest(
  body: unknown,
  tools: ToolSet,
  limits: ChatRequestLimits,
): Promise<Checked<ChatRequest>> {
  const envelope = checkEnvelope(body, limits);
  if (!envelope.ok) return envelope;
  const toolNames = new Set(Object.keys(tools));
  for (const [index, message] of envelope.value.messages.entries()) {
    const problem = checkMessage(message, index, toolNames, limits);
    if (problem) return refuse(problem);
  }
  const toolProblem = checkToolParts(envelope.value.messages);
  if (toolProblem) return refuse(toolProblem);
  const validated = await safeValidateUIMessages({ messages: envelope.value.messages, tools });
  if (!validated.success) return refuse(`messages: ${reasonOf(validated.error)}`);
  return { ok: true, value: { chatId: envelope.value.id, messages: validated.data } };
}

/**
 * The model messages of a checked history, or where the AI SDK could not convert it. A
 * tool's `toModelOutput` reads the output the page sent back as the tool made it; one it
 * cannot read throws (a TypeError, whose text says nothing to the client and much about
 * the server), so the part is found again and named instead.
 */
export async function toModelMessages(
  messages: UIMessage[],
  tools: ToolSet,
): Promise<Checked<ModelMessage[]>> {
  try {
    return { ok: true, value: await convertToModelMessages(messages, { tools }) };
  } catch {
    return refuse(await unreadablePart(messages, tools));
  }
}

/** Which part of a history that failed to convert fails alone (only on that failure path). */
async function unreadablePart(messages: UIMessage[], tools: ToolSet): Promise<string> {
  for (const [index, message] of messages.entries()) {
    for (const [at, part] of message.parts.entries()) {
      if (!part.type.startsWith('tool-')) continue;
      try {
        await convertToModelMessages([{ ...message, parts: [part] }], { tools });
      } catch {
        return `messages[${index}].parts[${at}].output: not what ${part.type.slice(5)} returns.`;
      }
    }
  }
  return 'messages: a history this chat cannot read back.';
}

/** The AI SDK's own validation message (first line); never the text of any other error. */
function reasonOf(error: unknown): string {
  if (!AISDKError.isInstance(error)) return 'a history this chat cannot read back.';
  return error.message.split('\n', 1)[0] ?? 'invalid';
}
