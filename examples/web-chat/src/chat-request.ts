import {
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

/**
 * Checks a `POST /api/chat` body completely before anything runs: the envelope, each
 * message (see {@link checkMessage}), then the AI SDK's own validation of UI messages
 * (tool inputs against the tools' schemas) and the conversion to model messages. Every
 * refusal names the field, for a 400.
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
  const validated = await safeValidateUIMessages({ messages: envelope.value.messages, tools });
  if (!validated.success) return refuse(`messages: ${firstLine(validated.error)}`);
  return { ok: true, value: { chatId: envelope.value.id, messages: validated.data } };
}

/** The model messages of a checked history, or the reason the AI SDK could not convert it. */
export async function toModelMessages(
  messages: UIMessage[],
  tools: ToolSet,
): Promise<Checked<ModelMessage[]>> {
  try {
    return { ok: true, value: await convertToModelMessages(messages, { tools }) };
  } catch (error) {
    return refuse(`messages: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0] ?? 'invalid';
}
