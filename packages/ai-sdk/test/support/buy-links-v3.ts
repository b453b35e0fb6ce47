import type * as ai from 'ai';
import type { StreamTextTransform, ToolSet, UIMessage } from 'ai';
import type { MockLanguageModelV3 } from 'ai/test';
import { type BuyLinksHarness, SEARCH } from './buy-links-suite.js';
import { toolOutputsSeen, v3GenerateResult } from './harness.js';

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const SEARCH_CALL = {
  type: 'tool-call' as const,
  toolCallId: 'call_0_0',
  toolName: 'search_catalog',
  input: JSON.stringify(SEARCH),
};
const messages = [{ role: 'user' as const, content: 'Trail running shoes, with links please' }];
const viewSeen = (call: Parameters<typeof toolOutputsSeen>[0]) =>
  String(toolOutputsSeen(call).get('call_0_0')?.value);

function finish(unified: 'stop' | 'tool-calls') {
  return { type: 'finish' as const, finishReason: { unified, raw: unified }, usage: USAGE };
}

/** What the harness uses of an `ai` module (6 or 7) and its `ai/test`. */
export interface AiV3Modules {
  ai: Pick<
    typeof ai,
    'generateText' | 'streamText' | 'stepCountIs' | 'simulateReadableStream' | 'readUIMessageStream'
  >;
  MockLanguageModelV3: typeof MockLanguageModelV3;
}

/**
 * The buy links harness for AI SDK 6 and 7, whose mock model (`MockLanguageModelV3`) and
 * stream parts are the same. The modules of 6 are typed as 7's, as a user's own `ai` would be.
 */
export function v3BuyLinksHarness(
  major: 6 | 7,
  {
    ai: { generateText, streamText, stepCountIs, simulateReadableStream, readUIMessageStream },
    MockLanguageModelV3,
  }: AiV3Modules,
): BuyLinksHarness {
  return {
    major,
    async generate(tools, answer) {
      let view = '';
      const model: MockLanguageModelV3 = new MockLanguageModelV3({
        doGenerate: async (options) => {
          if (model.doGenerateCalls.length === 1) return v3GenerateResult([SEARCH_CALL]);
          view = viewSeen(options);
          return {
            ...v3GenerateResult(undefined),
            content: [{ type: 'text', text: answer(view) }],
          };
        },
      });
      const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(3) });
      return { result, view };
    },
    stream(tools, chunks, transform) {
      const model: MockLanguageModelV3 = new MockLanguageModelV3({
        doStream: async (options) => {
          const parts =
            model.doStreamCalls.length === 1
              ? [SEARCH_CALL, finish('tool-calls')]
              : [
                  { type: 'text-start' as const, id: 't' },
                  ...chunks(viewSeen(options)).map((delta) => ({
                    type: 'text-delta' as const,
                    id: 't',
                    delta,
                  })),
                  { type: 'text-end' as const, id: 't' },
                  finish('stop'),
                ];
          const start = { type: 'stream-start' as const, warnings: [] };
          return { stream: simulateReadableStream({ chunks: [start, ...parts] }) };
        },
      });
      const result = streamText({
        model,
        tools,
        messages,
        stopWhen: stepCountIs(3),
        ...(transform ? { experimental_transform: transform as StreamTextTransform<ToolSet> } : {}),
      });
      return {
        textStream: result.textStream,
        text: result.text,
        steps: result.steps,
        async uiMessage() {
          let last: UIMessage | undefined;
          for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() }))
            last = message;
          return last as UIMessage & { parts: Array<{ type: string; text?: string }> };
        },
      };
    },
  };
}
