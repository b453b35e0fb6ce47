import {
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
  Usage,
} from '@openai/agents';

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  input: unknown;
}

/** One model turn: the calls to make, given the tool outputs the model has read so far. */
export type Turn = (seen: ReadonlyMap<string, string>) => ScriptedCall[];

/** The text of a function call result as the model reads it. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && 'text' in output) return String(output.text);
  return JSON.stringify(output);
}

/** Tool outputs in a model request, by call id. */
export function toolOutputsSeen(request: ModelRequest | undefined): Map<string, string> {
  const seen = new Map<string, string>();
  const input: AgentInputItem[] = typeof request?.input === 'string' ? [] : (request?.input ?? []);
  for (const item of input) {
    if (item.type === 'function_call_result') seen.set(item.callId, outputText(item.output));
  }
  return seen;
}

/**
 * A stand-in for a model, implementing the SDK's Model interface without a network: on its
 * n-th call it makes the n-th turn's tool calls (ids `call_<n>_<i>`), then answers.
 * It records every request, so tests see exactly what the model was given.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];

  /**
   * @param turns one per model call, then
   * @param answer the final text, from the tool outputs read so far (default "Done.")
   */
  constructor(
    private readonly turns: Turn[],
    private readonly answer: (seen: ReadonlyMap<string, string>) => string = () => 'Done.',
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const step = this.requests.length;
    this.requests.push(request);
    const seen = toolOutputsSeen(request);
    const calls = this.turns[step]?.(seen);
    const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    if (calls === undefined) {
      const text = { type: 'output_text' as const, text: this.answer(seen) };
      return {
        usage,
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [text] }],
      };
    }
    return {
      usage,
      output: calls.map((call, i) => ({
        type: 'function_call' as const,
        callId: `call_${step}_${i}`,
        name: call.name,
        arguments: JSON.stringify(call.input),
        status: 'completed' as const,
      })),
    };
  }

  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('The scripted model does not stream');
  }
}
