import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { createCatalogTools } from '@catalogkit/langchain';
import type { ToolMessage } from '@langchain/core/messages';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogTelemetry } from '../src/index.js';
import { start } from './support/emulator.js';
import { childrenOf, inMemoryOtel } from './support/otel.js';

/*
 * Issue 38 with LangChain: LangChain emits OpenTelemetry only through an integration that
 * listens to its callbacks (here OpenInference's). Callbacks see a run start and end but do not
 * wrap the tool's function, so LangChain's tool span is never the active span while the tool
 * runs: the client's spans cannot nest under it. What nests is what the README promises.
 */

const otel = inMemoryOtel();
afterAll(() => otel.shutdown());
// The instrumentation patches one copy of @langchain/core's callback manager: the copy the
// catalog tools run with, which pnpm resolves for packages/langchain (other peers than ours).
const langchainCore = dirname(
  createRequire(new URL('../../langchain/package.json', import.meta.url)).resolve(
    '@langchain/core/package.json',
  ),
);
const callbackManager: typeof import('@langchain/core/callbacks/manager') = await import(
  pathToFileURL(join(langchainCore, 'dist/callbacks/manager.js')).href
);
// Callbacks run in the background by default: wait for them before reading the spans.
const { awaitAllCallbacks }: typeof import('@langchain/core/callbacks/promises') = await import(
  pathToFileURL(join(langchainCore, 'dist/callbacks/promises.js')).href
);
new LangChainInstrumentation({ tracerProvider: otel.tracerProvider }).manuallyInstrument(
  callbackManager,
);

const searchCall = {
  type: 'tool_call' as const,
  id: 'call_search',
  name: 'search_catalog',
  args: { query: 'trail running shoes', limit: 3, cursor: null, placements: null },
};

async function searchTool() {
  const emulator = await start();
  const telemetry = catalogTelemetry(otel);
  const [search] = createCatalogTools({
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      instrumentation: telemetry.instrumentation,
    },
    include: ['search_catalog'],
  });
  return { telemetry, search: search! };
}

/** The finished spans in the trace of the span named `turn`. */
async function spansOf(turn: string) {
  await awaitAllCallbacks();
  const spans = otel.finished();
  const root = spans.find((span) => span.name === turn)!;
  const inTrace = spans.filter((span) => span.spanContext().traceId === root.spanContext().traceId);
  const named = (name: string) => inTrace.filter((span) => span.name === name);
  return { root, inTrace, named };
}

describe('LangChain with @arizeai/openinference-instrumentation-langchain', () => {
  it("puts LangChain's tool span and the client's call span side by side under the caller's span", async () => {
    const { search } = await searchTool();
    const tracer = otel.tracerProvider.getTracer('app');
    const message = (await tracer.startActiveSpan('turn plain', async (turn) => {
      try {
        return await search.invoke(searchCall);
      } finally {
        turn.end();
      }
    })) as ToolMessage;
    expect(message.tool_call_id).toBe('call_search');

    const { root, inTrace, named } = await spansOf('turn plain');
    const [langchainTool] = named('search_catalog');
    const [call] = named('catalog.search');
    expect(langchainTool?.attributes).toMatchObject({ 'openinference.span.kind': 'TOOL' });
    expect(call?.attributes).toMatchObject({ 'http.response.status_code': 200 });
    // Both are children of the span active at invoke; the call is not LangChain's child.
    expect(
      childrenOf(inTrace, root)
        .map((span) => span.name)
        .sort(),
    ).toEqual(['catalog.search', 'search_catalog']);
    expect(childrenOf(inTrace, langchainTool!)).toEqual([]);
  });

  it("nests LangChain's tool span and the client's call span under toolCall's execute_tool span", async () => {
    const { telemetry, search } = await searchTool();
    const tracer = otel.tracerProvider.getTracer('app');
    await tracer.startActiveSpan('turn wrapped', async (turn) => {
      try {
        await telemetry.toolCall(searchCall.name, searchCall.id, () => search.invoke(searchCall));
      } finally {
        turn.end();
      }
    });

    const { root, inTrace, named } = await spansOf('turn wrapped');
    const [executeTool] = named('execute_tool search_catalog');
    expect(executeTool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_catalog',
      'gen_ai.tool.call.id': 'call_search',
    });
    expect(childrenOf(inTrace, root)).toEqual([executeTool]);
    expect(
      childrenOf(inTrace, executeTool!)
        .map((span) => span.name)
        .sort(),
    ).toEqual(['catalog.search', 'search_catalog']);
    const [call] = named('catalog.search');
    expect(childrenOf(inTrace, call!).map((span) => span.name)).toEqual(['POST /mcp']);
  });
});
