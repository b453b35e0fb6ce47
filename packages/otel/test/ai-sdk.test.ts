import { OpenTelemetry } from '@ai-sdk/otel';
import { createCatalogTools } from '@catalogkit/ai-sdk';
import { generateText, registerTelemetry, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogTelemetry } from '../src/index.js';
import { start } from './support/emulator.js';
import { childrenOf, inMemoryOtel } from './support/otel.js';

/*
 * Issue 38 with a real framework: AI SDK 7 with @ai-sdk/otel makes its own GenAI
 * `execute_tool <name>` span around each tool execution, active while the tool runs; the
 * client's call spans nest under it with nothing wrapped.
 */

const otel = inMemoryOtel();
afterAll(() => otel.shutdown());

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

describe('AI SDK 7 with @ai-sdk/otel', () => {
  it("nests the client's call spans under the AI SDK's execute_tool span", async () => {
    const emulator = await start();
    registerTelemetry(new OpenTelemetry({ tracer: otel.tracerProvider.getTracer('ai') }));
    const telemetry = catalogTelemetry(otel);
    const tools = createCatalogTools({
      clientOptions: {
        apiKey: emulator.keys.valid,
        mcpUrl: emulator.mcpUrl,
        instrumentation: telemetry.instrumentation,
      },
      include: ['search_catalog'],
    });
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () =>
        step++ === 0
          ? {
              content: [
                {
                  type: 'tool-call' as const,
                  toolCallId: 'call_search',
                  toolName: 'search_catalog',
                  input: JSON.stringify({
                    query: 'trail running shoes',
                    limit: 3,
                    cursor: null,
                    placements: null,
                  }),
                },
              ],
              finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
              usage: USAGE,
              warnings: [],
            }
          : {
              content: [{ type: 'text' as const, text: 'Done.' }],
              finishReason: { unified: 'stop' as const, raw: 'stop' },
              usage: USAGE,
              warnings: [],
            },
    });
    const result = await generateText({
      model,
      tools,
      prompt: 'find trail running shoes',
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('Done.');

    const spans = otel.finished();
    const toolSpan = spans.find((span) => span.name === 'execute_tool search_catalog');
    expect(toolSpan?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.call.id': 'call_search',
    });
    const [call] = childrenOf(spans, toolSpan!).filter((span) => span.name === 'catalog.search');
    expect(call?.attributes).toMatchObject({
      'catalogkit.tier': 'token',
      'http.response.status_code': 200,
      'catalogkit.attempts': 1,
    });
    expect(childrenOf(spans, call!).map((span) => span.name)).toEqual(['POST /mcp']);
  });
});
