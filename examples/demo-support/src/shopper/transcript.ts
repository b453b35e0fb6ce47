/**
 * The conversation as the scripted shopper reads it, independent of the agent framework:
 * each example turns its framework's prompt (AI SDK model messages, LangChain messages)
 * into this shape, and the shopper decides from it alone.
 */

/** How a tool call ended, as far as the model was told. */
export type ObservationOutcome = 'result' | 'error' | 'denied';

/** One tool call the model made earlier in the conversation, and what it was shown back. */
export interface ToolObservation {
  toolName: string;
  /** The arguments the model gave. */
  input: unknown;
  /** The text the model was shown: the tool's output, an error message or a denial reason. */
  text: string;
  outcome: ObservationOutcome;
}

/** The shopper's request and every tool call since, oldest first. */
export interface ShopperTranscript {
  request: string;
  observations: ToolObservation[];
}

/** A tool call the shopper wants to make next. */
export interface PlannedToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** The shopper's next move: call tools (possibly several at once), or answer in words. */
export type PlannedStep =
  | { kind: 'tool-calls'; calls: PlannedToolCall[] }
  | { kind: 'answer'; text: string };

/** Text of a tool output the model was shown, whatever shape the framework gave it. */
export function observationText(output: unknown): string {
  if (typeof output === 'string') return output;
  return JSON.stringify(output) ?? '';
}
