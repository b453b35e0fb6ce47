import {
  generateText,
  type LanguageModel,
  readUIMessageStream,
  type StreamTextTransform,
  simulateReadableStream,
  stepCountIs,
  streamText,
  type ToolSet,
} from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { type BuyLinksHarness, describeBuyLinkHelpers, SEARCH } from './support/buy-links-suite.js';
import { toolOutputsSeen } from './support/harness.js';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const SEARCH_CALL = {
  type: 'tool-call' as const,
  toolCallId: 'call_0_0',
  toolName: 'search_catalog',
  input: JSON.stringify(SEARCH),
};
const messages = [{ role: 'user' as const, content: 'Trail running shoes, with links please' }];
const viewSeen = (call: Parameters<typeof toolOutputsSeen>[0]) =>
  String(toolOutputsSeen(call).get('call_0_0')?.value);

// createCatalogTools is typed with the dev `ai` (7); the casts stand in for a user's own `ai`.
const harness: BuyLinksHarness = {
  major: 5,
  async generate(tools, answer) {
    let view = '';
    const model: MockLanguageModelV2 = new MockLanguageModelV2({
      doGenerate: async (options) => {
        if (model.doGenerateCalls.length === 1) {
          return { content: [SEARCH_CALL], finishReason: 'tool-calls', usage, warnings: [] };
        }
        view = viewSeen(options);
        return {
          content: [{ type: 'text', text: answer(view) }],
          finishReason: 'stop',
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools: tools as unknown as ToolSet,
      messages,
      stopWhen: stepCountIs(3),
    });
    return { result, view };
  },
  stream(tools, chunks, transform) {
    const model: MockLanguageModelV2 = new MockLanguageModelV2({
      doStream: async (options) => {
        const parts =
          model.doStreamCalls.length === 1
            ? [SEARCH_CALL, { type: 'finish' as const, finishReason: 'tool-calls' as const, usage }]
            : [
                { type: 'text-start' as const, id: 't' },
                ...chunks(viewSeen(options)).map((delta) => ({
                  type: 'text-delta' as const,
                  id: 't',
                  delta,
                })),
                { type: 'text-end' as const, id: 't' },
                { type: 'finish' as const, finishReason: 'stop' as const, usage },
              ];
        const start = { type: 'stream-start' as const, warnings: [] };
        return { stream: simulateReadableStream({ chunks: [start, ...parts] }) };
      },
    });
    const result = streamText({
      model: model as LanguageModel,
      tools: tools as unknown as ToolSet,
      messages,
      stopWhen: stepCountIs(3),
      ...(transform ? { experimental_transform: transform as StreamTextTransform<ToolSet> } : {}),
    });
    return {
      textStream: result.textStream,
      text: result.text,
      steps: result.steps,
      async uiMessage() {
        let last: unknown;
        for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() }))
          last = message;
        return last as Awaited<ReturnType<ReturnType<BuyLinksHarness['stream']>['uiMessage']>>;
      },
    };
  },
};

describeBuyLinkHelpers(harness);
