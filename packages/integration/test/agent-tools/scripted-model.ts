import { generateText, type ModelMessage, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** A tool call a scripted model makes. */
export interface ScriptedCall {
  toolName: string;
  input: unknown;
}

/** What a model read of one tool call: the `output` of a `tool-result` part of its prompt. */
export interface ToolOutputSeen {
  toolCallId: string;
  toolName: string;
  type: string;
  value: unknown;
}

type Prompt = readonly { role: string; content: unknown }[];

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Every tool result in a prompt, in order: exactly what the model reads. */
export function toolOutputsIn(prompt: Prompt): ToolOutputSeen[] {
  const seen: ToolOutputSeen[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as Array<Record<string, unknown>>) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as { type: string; value: unknown };
      seen.push({
        toolCallId: String(part.toolCallId),
        toolName: String(part.toolName),
        type: output.type,
        value: output.value,
      });
    }
  }
  return seen;
}

/**
 * Runs `generateText` (AI SDK 7) with a mock model from `ai/test` whose next tool calls are
 * decided by `next` from what it read so far; it answers "Done." when `next` gives none.
 * Returns the result and every prompt the model received.
 */
export async function runScriptedModel(options: {
  tools: ToolSet;
  prompt: string;
  next(seen: ToolOutputSeen[], step: number): ScriptedCall[];
  maxSteps?: number;
}) {
  let step = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const calls = options.next(toolOutputsIn(prompt as Prompt), step);
      const current = step;
      step += 1;
      if (calls.length === 0) {
        return {
          content: [{ type: 'text' as const, text: 'Done.' }],
          finishReason: { unified: 'stop' as const, raw: 'stop' },
          usage: USAGE,
          warnings: [],
        };
      }
      return {
        content: calls.map((call, i) => ({
          type: 'tool-call' as const,
          toolCallId: `call_${current}_${i}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        })),
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage: USAGE,
        warnings: [],
      };
    },
  });
  const messages: ModelMessage[] = [{ role: 'user', content: options.prompt }];
  const result = await generateText({
    model,
    tools: options.tools,
    messages,
    stopWhen: stepCountIs(options.maxSteps ?? 10),
  });
  const prompts = model.doGenerateCalls.map((call) => call.prompt as Prompt);
  return { result, prompts };
}
