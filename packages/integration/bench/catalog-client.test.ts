// Checks what the benchmark counts and compares, not how fast anything is: latencies are
// only reported by `bench:client`, never asserted.
import { CatalogClient } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchRow, runCatalogClientBench } from './catalog-client.js';
import { BENCH_QUERY, type Contender, createContenders } from './catalog-client-contenders.js';
import { buyLinkGuard } from './catalog-client-table.js';
import { quantile, summarizeLatencies } from './latency-stats.js';
import { buyLinksOf } from './raw-catalog-search.js';

describe('latency statistics', () => {
  it('takes the median of odd and even counts and the nearest-rank p90', () => {
    expect(summarizeLatencies([5, 1, 3])).toEqual({ calls: 3, medianMs: 3, p90Ms: 5 });
    const tenValues = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    expect(summarizeLatencies(tenValues)).toEqual({ calls: 10, medianMs: 5.5, p90Ms: 9 });
    expect(quantile([4, 2], 0)).toBe(2);
    expect(() => quantile([], 0.5)).toThrow('no values');
  });
});

describe('catalog client benchmark against the emulator', () => {
  let emulator: RunningEmulator;
  let contenders: Contender[];
  let rows: BenchRow[];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, mcpResponse: 'sse' });
    contenders = await createContenders(emulator);
    const target = { mode: 'sse' as const, emulator, contenders };
    rows = await runCatalogClientBench([target], { calls: 3, warmupCalls: 1, budgetMs: 15_000 });
  });
  afterAll(async () => {
    for (const contender of contenders) await contender.close();
    await emulator.close();
  });

  const row = (id: BenchRow['id']) => rows.find((candidate) => candidate.id === id) as BenchRow;

  it('measures every contender the planned number of times', () => {
    expect(rows.map((r) => [r.id, r.calls])).toEqual([
      ['a', 3],
      ['b', 3],
      ['c', 3],
    ]);
    expect(row('a').medianRatioToA).toBe(1);
  });

  it('counts one POST for the client and for a reused SDK connection', () => {
    for (const id of ['a', 'c'] as const) {
      expect(row(id).requestsPerCall).toBe(1);
      expect(row(id).postsPerCallByMethod).toEqual({ 'tools/call': 1 });
    }
  });

  it('counts the handshake of a new SDK connection per call', () => {
    expect(row('b').postsPerCallByMethod).toEqual({
      initialize: 1,
      'notifications/initialized': 1,
      'tools/call': 1,
    });
    // The SDK also opens a GET stream after initialize, which the emulator refuses (405).
    expect(row('b').requestsPerCall).toBe(4);
  });

  it('finds the same monetized buy links in every answer', () => {
    const guard = buyLinkGuard(rows);
    expect(guard.ok).toBe(true);
    expect(row('a').referenceLinks.length).toBeGreaterThan(0);
    expect(row('a').referenceLinks.every((url) => url.startsWith('http'))).toBe(true);
  });

  it('counts the calls whose buy links differ from (a), e.g. a caller without the key', async () => {
    const anonymous = new CatalogClient({ mcpUrl: emulator.mcpUrl, apiKey: undefined });
    const keyless: Contender = {
      id: 'b',
      label: 'anonymous client',
      requestsSent: 0,
      search: async () => buyLinksOf((await anonymous.catalog.search(BENCH_QUERY)).result),
      close: async () => {},
    };
    const target = {
      mode: 'sse' as const,
      emulator,
      contenders: [contenders[0] as Contender, keyless],
    };
    const [withKey, withoutKey] = await runCatalogClientBench([target], {
      calls: 2,
      warmupCalls: 1,
      budgetMs: 15_000,
    });
    expect(withKey?.linkMismatches).toBe(0);
    // Unmonetized links: one warm-up and two measured calls all differ.
    expect(withoutKey?.linkMismatches).toBe(3);
  });

  it('flags a contender whose buy links differ', () => {
    const differing = rows.map((r) => (r.id === 'c' ? { ...r, linkMismatches: 2 } : r));
    expect(buyLinkGuard(differing)).toMatchObject({ ok: false });
    expect(buyLinkGuard(differing).text).toContain('2 calls differed');
  });
});
