import type { ToolSet } from 'ai';

/**
 * What the shared suite needs from one major version of `ai`: a `generateText` run with that
 * version's mock model from `ai/test`, seen through the parts of the result and of the model
 * calls that are the same in AI SDK 5, 6 and 7.
 */
export interface AiSdkHarness {
  /** Major version under test. */
  major: 5 | 6 | 7;
  /** The `ai` module of that version; the adapter must resolve `ai` to this very module. */
  aiModule: object;
  /** Runs `generateText` with a mock model that plays `steps`, one per model call. */
  generate(run: GenerateRun): Promise<GenerateOutcome>;
  /** The JSON Schema that version sends to providers for a tool's input. */
  inputJsonSchema(tool: ToolSet[string]): Promise<unknown>;
  /**
   * The messages that record the user's approval of every call awaiting it in `outcome`,
   * the way this version does it. `approvedTools` are built with `needsApproval: false`.
   */
  approvalMessages(outcome: GenerateOutcome, approvedTools: ToolSet): Promise<unknown[]>;
}

export interface ScriptedToolCall {
  toolName: string;
  input: unknown;
}

/** A tool result as a model receives it in its prompt (`output` of a `tool-result` part). */
export interface ToolOutputSeen {
  type: string;
  value: unknown;
}

/** One model turn: the tool calls to make, given the tool results in the prompt so far. */
export type StepScript = (seen: Map<string, ToolOutputSeen>) => ScriptedToolCall[];

export interface GenerateRun {
  tools: ToolSet;
  /** Model messages (user, assistant, tool), as `generateText({ messages })` takes them. */
  messages: unknown[];
  /** After the scripted steps the model answers "Done.". */
  steps: StepScript[];
  maxSteps?: number;
}

export interface ContentPartView {
  type: string;
  toolCallId?: string;
  error?: unknown;
  approvalId?: string;
}

/** The parts of a `generateText` result that AI SDK 5, 6 and 7 share. */
export interface GenerateResultView {
  text: string;
  content: readonly ContentPartView[];
  toolCalls: readonly { toolCallId: string; toolName: string; input: unknown }[];
  steps: readonly {
    content: readonly ContentPartView[];
    toolResults: readonly { toolCallId: string; output: unknown }[];
  }[];
  response: { messages: readonly unknown[] };
}

/** What a mock model received in one call (the shape LanguageModelV2 and V3 share). */
export interface ModelCallView {
  prompt: readonly { role: string; content: unknown }[];
  tools?: readonly { name: string; strict?: boolean }[] | undefined;
}

export interface GenerateOutcome {
  result: GenerateResultView;
  /** Every call the model received, in order: `calls[n]` shows the results of step n - 1. */
  calls: readonly ModelCallView[];
}

/** A tool-call content part as LanguageModelV2 and V3 both return it. */
export interface ToolCallContent {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: string;
}

/** The tool results a model saw in one call's prompt, by tool call id. */
export function toolOutputsSeen(call: ModelCallView | undefined): Map<string, ToolOutputSeen> {
  const seen = new Map<string, ToolOutputSeen>();
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; output: unknown }[]) {
      if (part.type === 'tool-result') seen.set(part.toolCallId, part.output as ToolOutputSeen);
    }
  }
  return seen;
}

/**
 * The tool calls a scripted model makes on its `step`-th call (0-based), or `undefined` once
 * the script is played out (the model then answers with text).
 */
export function scriptedToolCalls(
  steps: StepScript[],
  step: number,
  call: ModelCallView,
): ToolCallContent[] | undefined {
  const script = steps[step];
  return script?.(toolOutputsSeen(call)).map((toolCall, i) => ({
    type: 'tool-call',
    toolCallId: `call_${step}_${i}`,
    toolName: toolCall.toolName,
    input: JSON.stringify(toolCall.input),
  }));
}

/** AI SDK 6 and 7: a `tool-approval-response` approving each `tool-approval-request`. */
export async function approvalResponses(outcome: GenerateOutcome): Promise<unknown[]> {
  const content = outcome.result.content
    .filter((part) => part.type === 'tool-approval-request')
    .map((part) => ({
      type: 'tool-approval-response',
      approvalId: part.approvalId,
      approved: true,
    }));
  return [{ role: 'tool', content }];
}

const V3_USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * What a `MockLanguageModelV3` (AI SDK 6 and 7) answers on one call: the scripted tool
 * calls, or "Done." once the script is played out.
 */
export function v3GenerateResult(toolCalls: ToolCallContent[] | undefined) {
  return toolCalls
    ? {
        content: toolCalls,
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage: V3_USAGE,
        warnings: [],
      }
    : {
        content: [{ type: 'text' as const, text: 'Done.' }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: V3_USAGE,
        warnings: [],
      };
}
