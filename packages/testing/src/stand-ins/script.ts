import type { Json } from '../json.js';

/**
 * A tool call a stand-in's "model" makes. `args` are what the model means; each stand-in
 * writes them the way its provider's models do (see {@link ArgumentStyle}).
 */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One model turn: tool calls, or the final text. */
export type ScriptedTurn = readonly ScriptedCall[] | string;

/** A tool result as the model received it in a later request. */
export interface ResultSeen {
  /** The call it answers (for Gemini, which has no call ids, the tool name). */
  callId: string;
  /** The tool that was called, when the request says (or the stand-in remembers). */
  name?: string;
  /** The text the model read. */
  text: string;
  /** Marked as an error (Anthropic `is_error`); other providers have no such mark. */
  isError: boolean;
}

/** A tool as a request declared it to the model. */
export interface DeclaredTool {
  name: string;
  description: string;
  /** The input schema as sent (JSON Schema, or Gemini's OpenAPI subset). */
  parameters: unknown;
  /** Strict input generation asked for (OpenAI); `undefined` where the provider has none. */
  strict: boolean | undefined;
}

/** A tool call the model made earlier in the conversation, as the request replays it. */
export interface CallSeen {
  callId: string;
  name: string;
  args: unknown;
}

/** What the model was shown in one request, the same for every provider. */
export interface ModelView {
  /** Which request this is at the stand-in (0 for the first). */
  request: number;
  /** System or developer instructions, joined. */
  instructions: string;
  /** The shopper's messages, in order. */
  userMessages: string[];
  /** The tool calls the model made earlier in this conversation. */
  calls: CallSeen[];
  /** The tool results it was given, in order. */
  results: ResultSeen[];
  /** The tools it may call. */
  tools: DeclaredTool[];
  /** Whether the answer is streamed. */
  stream: boolean;
}

/**
 * What a stand-in's model does: a list of turns played in order (the turn for request N;
 * past the end, the last), or a function of what the model was shown, so a script can copy
 * a link it read or repeat a call after a failure.
 */
export type ModelScript = readonly ScriptedTurn[] | ((view: ModelView) => ScriptedTurn);

/**
 * How scripted arguments are written: `'provider'` (default) the way that provider's models
 * write them, i.e. every field present and `null` for "not given" on OpenAI strict tools, and
 * optional fields left out (no `null`s) everywhere else; `'as-written'` exactly as scripted.
 */
export type ArgumentStyle = 'provider' | 'as-written';

/** Options every stand-in takes. */
export interface StandInScriptOptions {
  /** How tool-call arguments are written (default `'provider'`). */
  argumentStyle?: ArgumentStyle;
}

/** The turn for the `index`-th request of a list; past the end, the last text. */
export function turnAt(turns: readonly ScriptedTurn[], index: number): ScriptedTurn {
  return turns[index] ?? turns.at(-1) ?? 'Done.';
}

/** The turn a script plays for a request. */
export function playScript(script: ModelScript, view: ModelView): ScriptedTurn {
  return typeof script === 'function' ? script(view) : turnAt(script, view.request);
}

/** The id of the `i`-th call of the turn answering request `turn`. */
export const callId = (turn: number, i: number) => `call_${turn}_${i}`;

/** Names the earlier calls' results by matching call ids. */
export function nameResults(results: ResultSeen[], calls: CallSeen[]): ResultSeen[] {
  const names = new Map(calls.map((call) => [call.callId, call.name]));
  return results.map((result) =>
    result.name !== undefined || !names.has(result.callId)
      ? result
      : { ...result, name: names.get(result.callId) },
  );
}

/** The text of content given as a string or as a list of `{ text }` parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((part) =>
      typeof part === 'string' ? part : String((part as Json | null)?.text ?? JSON.stringify(part)),
    )
    .join('');
}
