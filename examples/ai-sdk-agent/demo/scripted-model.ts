import {
  observationText,
  type PlannedStep,
  planNextStep,
  type ShopperTranscript,
  type ToolObservation,
} from '@catalogkit/example-demo-support';
import { MockLanguageModelV4 } from 'ai/test';

type CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type Prompt = CallOptions['prompt'];
type Message = Prompt[number];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
type ToolResultOutput = Extract<
  Extract<Message, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>['output'];

/** Label shown in the run header. */
export const SCRIPTED_MODEL_LABEL = 'scripted shopper (MockLanguageModelV4 from ai/test)';

function userText(message: Message): string {
  if (message.role !== 'user') return '';
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** What a tool result told the model, and whether it was a result, an error or a denial. */
function observed(output: ToolResultOutput): Pick<ToolObservation, 'text' | 'outcome'> {
  switch (output.type) {
    case 'text':
    case 'json':
      return { text: observationText(output.value), outcome: 'result' };
    case 'error-text':
    case 'error-json':
      return { text: observationText(output.value), outcome: 'error' };
    case 'execution-denied':
      return { text: output.reason ?? 'denied', outcome: 'denied' };
    case 'content':
      return {
        text: output.value.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'),
        outcome: 'result',
      };
  }
}

/**
 * Reads the prompt the AI SDK sends the model: the last user message is the request, and
 * each tool result is matched with the call that asked for it.
 */
export function transcriptFromPrompt(prompt: Prompt): ShopperTranscript {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const observations: ToolObservation[] = [];
  let request = '';
  for (const message of prompt) {
    if (message.role === 'user') request = userText(message) || request;
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-call')
          calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      }
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const call = calls.get(part.toolCallId);
        observations.push({
          toolName: part.toolName,
          input: call?.input,
          ...observed(part.output),
        });
      }
    }
  }
  return { request, observations };
}

const NO_USAGE: GenerateResult['usage'] = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** Tool call ids unique within the conversation: the step number and the call's position. */
function toGenerateResult(step: PlannedStep, stepNumber: number): GenerateResult {
  if (step.kind === 'answer') {
    return {
      content: [{ type: 'text', text: step.text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: NO_USAGE,
      warnings: [],
    };
  }
  return {
    content: step.calls.map((call, index) => ({
      type: 'tool-call' as const,
      toolCallId: `call_${stepNumber}_${index + 1}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: NO_USAGE,
    warnings: [],
  };
}

/**
 * A language model for offline runs: on every call it reads the conversation from the
 * prompt (the request and the tool results so far) and deterministically decides the next
 * tool calls or the final answer. The tools it calls, their HTTP requests and their results
 * are real; only the choosing is scripted.
 */
export function createScriptedModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'catalogkit-example',
    modelId: 'scripted-shopper',
    doGenerate: async ({ prompt }) => {
      const stepNumber = prompt.filter((message) => message.role === 'assistant').length + 1;
      return toGenerateResult(planNextStep(transcriptFromPrompt(prompt)), stepNumber);
    },
  });
}
