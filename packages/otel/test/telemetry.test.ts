import { CatalogClient, createCatalogToolList, MemoryCatalogStore } from '@catalogkit/core';
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogTelemetry } from '../src/index.js';
import { start } from './support/emulator.js';
import { childrenOf, inMemoryOtel } from './support/otel.js';

const UPDATE_ROUTE = 'PATCH /v1/collections/:collection_id';
const catalogInput = { query: 'trail running shoes', limit: 5, cursor: null, placements: null };
const noChange = {
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};

let otel = inMemoryOtel();
afterEach(async () => {
  await otel.shutdown();
  otel = inMemoryOtel();
});

describe('one agent turn against the emulator', () => {
  it('gives the span tree: turn > execute_tool > call > attempts, with a 429 retried', async () => {
    const emulator = await start();
    const telemetry = catalogTelemetry(otel);
    const tools = createCatalogToolList({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
        instrumentation: telemetry.instrumentation,
        store: telemetry.store(new MemoryCatalogStore()),
      },
    });
    const byName = (name: string) => {
      const tool = tools.find((candidate) => candidate.originalName === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool;
    };
    // The update's first attempt is refused with 429 (Retry-After 1 s), the second applies it.
    emulator.faults.set({ routes: [UPDATE_ROUTE], status: 429, retryAfterSeconds: 1, times: 1 });
    // The framework's own span (the AI SDK's `ai.streamText`), active around the tool calls.
    const framework = otel.tracerProvider.getTracer('framework');
    await framework.startActiveSpan('ai.streamText', async (turn) => {
      const search = byName('search_catalog');
      const products = (await telemetry.toolCall(search.name, 'call_1', () =>
        search.execute(catalogInput as never),
      )) as { response: { products: { id: string }[] } };
      const productId = products.response.products[0]?.id ?? 'p';
      const update = byName('update_collection');
      await telemetry.toolCall(update.name, 'call_2', () =>
        update.execute({
          ...noChange,
          collection_id: 'col_summer',
          add_clauses: [
            { brand_ids: [], website_ids: [], category_ids: [], product_ids: [productId] },
          ],
        } as never),
      );
      turn.end();
    });

    const spans = otel.finished();
    const root = spans.find((span) => span.name === 'ai.streamText');
    if (!root) throw new Error('no framework span');
    const toolSpans = childrenOf(spans, root);
    expect(toolSpans.map((span) => span.name)).toEqual([
      'execute_tool search_catalog',
      'execute_tool update_collection',
    ]);
    const [searchTool, updateTool] = toolSpans as [(typeof spans)[0], (typeof spans)[0]];
    expect(searchTool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_catalog',
      'gen_ai.tool.call.id': 'call_1',
    });

    const [searchCall] = childrenOf(spans, searchTool).filter((s) => s.name === 'catalog.search');
    expect(searchCall?.attributes).toMatchObject({
      'catalogkit.operation': 'catalog.search',
      'url.template': '/mcp',
      'http.response.status_code': 200,
      'catalogkit.tier': 'token',
      'catalogkit.attempts': 1,
      'catalogkit.outcome_unknown': false,
    });
    expect(childrenOf(spans, searchCall!).map((span) => span.name)).toEqual(['POST /mcp']);

    const [updateCall] = childrenOf(spans, updateTool).filter(
      (span) => span.name === 'collections.update',
    );
    expect(updateCall?.attributes).toMatchObject({
      'catalogkit.operation': 'collections.update',
      'url.template': '/v1/collections/{collection_id}',
      'http.response.status_code': 200,
      'catalogkit.attempts': 2,
      'catalogkit.mutates': true,
      'catalogkit.outcome_unknown': false,
    });
    const events = updateCall!.events.map((event) => event.name);
    expect(events).toContain('catalogkit.rate_limited');
    const retry = updateCall!.events.find((event) => event.name === 'catalogkit.retry_wait');
    expect(retry?.attributes?.['catalogkit.wait_ms']).toBe(1_000);
    const attempts = childrenOf(spans, updateCall!);
    expect(attempts.map((span) => span.name)).toEqual([
      'PATCH /v1/collections/{collection_id}',
      'PATCH /v1/collections/{collection_id}',
    ]);
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual([
      429, 200,
    ]);
    expect(attempts[0]?.attributes['error.type']).toBe('RateLimitError');
    expect(attempts[1]?.attributes['http.request.resend_count']).toBe(1);
    // The store the rate-limit pause is shared through: its operations have spans too.
    expect(spans.some((span) => span.name.startsWith('catalogkit.store '))).toBe(true);

    const metrics = await otel.metrics();
    const durations = metrics.get('catalogkit.client.call.duration') ?? [];
    expect(durations.map((point) => point.attributes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ 'catalogkit.operation': 'catalog.search' }),
        expect.objectContaining({ 'catalogkit.operation': 'collections.update' }),
      ]),
    );
    expect(metrics.get('catalogkit.client.retries')?.[0]?.value).toBe(1);
    expect(metrics.get('catalogkit.client.rate_limit.pauses')?.[0]?.value).toBe(1);
  });

  it('records nothing, and the client works, when no provider is registered', async () => {
    const emulator = await start();
    // The global providers: none registered in this test process.
    const telemetry = catalogTelemetry();
    const client = new CatalogClient({
      apiKey: emulator.keys.valid,
      mcpUrl: emulator.mcpUrl,
      instrumentation: telemetry.instrumentation,
    });
    const answer = await client.catalog.search({ query: 'shoes' });
    expect(answer.tier).toBe('token');
    expect(trace.getActiveSpan()).toBeUndefined();
  });
  // Red team T2, T3, T5, T6: metrics whatever the sampling; server text and the app's own
  // operation names only from closed lists.
  it('counts calls with metrics alone; odd operations, currencies and methods are bounded', async () => {
    const emulator = await start();
    const metricsOnly = catalogTelemetry({ meterProvider: otel.meterProvider });
    const client = new CatalogClient({
      apiKey: emulator.keys.valid,
      mcpUrl: emulator.mcpUrl,
      instrumentation: metricsOnly.instrumentation,
    });
    await client.catalog.search({ query: 'shoes' });
    const duration = (await otel.metrics()).get('catalogkit.client.call.duration') ?? [];
    expect(duration.map((point) => point.attributes)).toEqual([
      expect.objectContaining({ 'catalogkit.operation': 'catalog.search' }),
    ]);
    const telemetry = catalogTelemetry(otel);
    telemetry.instrumentation.startCall(`${emulator.keys.valid}.op`, false)?.end(undefined, 1);
    const pay = telemetry.payment({
      pay: async () => undefined,
    } as never);
    await pay.pay(
      [{ method: 'cred_q1w2e3r4t5y6', intent: 'charge', currency: 'QQQ', amount: '5' }] as never,
      { operation: 'websites.search' } as never,
    );
    const spans = otel.finished();
    expect(spans.map((span) => span.name)).toContain('custom');
    const text = JSON.stringify(spans.map((span) => [span.name, span.attributes]));
    expect(text).not.toContain(emulator.keys.valid);
    expect(text).not.toContain('cred_q1w2e3r4t5y6');
    const payment = spans.find((span) => span.name === 'catalogkit.payment');
    expect(payment?.attributes).toMatchObject({
      'catalogkit.payment.method': '_OTHER',
      'catalogkit.payment.intent': 'charge',
      'catalogkit.payment.currency': '_OTHER',
    });
  });
});
