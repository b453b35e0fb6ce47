/** A tool call a stand-in's "model" makes, with the arguments exactly as that model sends them. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** One model turn: tool calls, or the final text. */
export type ScriptedTurn = readonly ScriptedCall[] | string;

/** A tool result as the model received it in a later request. */
export interface ResultSeen {
  callId: string;
  text: string;
  isError: boolean;
}

/** The turn for the `index`-th request; past the end, the last text. */
export function turnAt(turns: readonly ScriptedTurn[], index: number): ScriptedTurn {
  return turns[index] ?? turns.at(-1) ?? 'Done.';
}

export const callId = (turn: number, i: number) => `call_${turn}_${i}`;
