import { describe, expect, it } from 'vitest';
import { get, searchWebsites, send, start } from './helpers.js';
import { rpc, searchCatalog } from './mcp-helpers.js';

const SEARCH = '/v1/websites/search?query=fell';
const PATCH_ROUTE = 'PATCH /v1/collections/:collection_id';
const addClause = {
  add_clauses: [{ brand_ids: ['brand_fault'], website_ids: [], category_ids: [], product_ids: [] }],
};

describe('fault injection', () => {
  it('is off by default', async () => {
    const emulator = await start();
    expect(emulator.faults.active).toEqual([]);
    for (let i = 0; i < 5; i++) expect((await get(emulator, SEARCH)).status).toBe(200);
  });

  it('answers an error status for the next N requests of the chosen routes only', async () => {
    const emulator = await start();
    emulator.faults.set({
      routes: ['GET /v1/websites/search'],
      status: 503,
      retryAfterSeconds: 2,
      times: 2,
    });
    const first = await get(emulator, SEARCH);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('2');
    expect(await first.json()).toEqual({ detail: 'Injected fault: status 503' });
    expect(
      (await send(emulator, 'PATCH', '/v1/collections/col_summer', { name: 'Still works' })).status,
    ).toBe(200);
    expect((await get(emulator, SEARCH)).status).toBe(503);
    expect((await get(emulator, SEARCH)).status).toBe(200);
    expect(emulator.faults.active).toEqual([]);
    expect(emulator.stats.count('GET /v1/websites/search')).toBe(3);
  });

  it('draws a fault rate from a seeded PRNG: the same seed gives the same pattern', async () => {
    const pattern = async () => {
      const emulator = await start({ faults: { status: 500, rate: 0.5 } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await get(emulator, SEARCH)).status);
      return statuses;
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('adds latency, switchable at run time', async () => {
    const emulator = await start();
    emulator.faults.set({ latencyMs: 400 });
    await expect(
      fetch(`${emulator.baseUrl}${SEARCH}`, {
        headers: { 'x-api-key': emulator.keys.valid },
        signal: AbortSignal.timeout(150),
      }),
    ).rejects.toThrow();
    const startedAt = performance.now();
    expect((await get(emulator, SEARCH)).status).toBe(200);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(390);
    emulator.faults.clear();
    const fast = await fetch(`${emulator.baseUrl}${SEARCH}`, {
      headers: { 'x-api-key': emulator.keys.valid },
      signal: AbortSignal.timeout(5000),
    });
    expect(fast.status).toBe(200);
  });

  it('drops the connection before handling: nothing is applied', async () => {
    const emulator = await start();
    emulator.faults.set({ routes: [PATCH_ROUTE], drop: 'before', times: 1 });
    await expect(send(emulator, 'PATCH', '/v1/collections/col_summer', addClause)).rejects.toThrow(
      TypeError,
    );
    expect(emulator.state.collections.get('col_summer')?.clauses).toHaveLength(1);
    expect(emulator.stats.count('PATCH /v1/collections/:id')).toBe(1);
  });

  it('drops the connection after handling: the change is applied once, the answer is lost', async () => {
    const emulator = await start();
    emulator.faults.set({ routes: [PATCH_ROUTE], drop: 'after', times: 1 });
    await expect(send(emulator, 'PATCH', '/v1/collections/col_summer', addClause)).rejects.toThrow(
      TypeError,
    );
    const clauses = emulator.state.collections.get('col_summer')?.clauses ?? [];
    expect(clauses.filter((clause) => clause.brand_ids.includes('brand_fault'))).toHaveLength(1);
    expect(emulator.stats.count(PATCH_ROUTE)).toBe(1);
  });

  it('truncates bodies: headers promise more bytes than arrive', async () => {
    const emulator = await start();
    emulator.faults.set({ routes: ['GET /v1/websites/search'], truncate: true, times: 1 });
    const response = await get(emulator, SEARCH);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(10);
    await expect(response.text()).rejects.toThrow();
    expect((await searchWebsites(emulator, { query: 'fell' })).status).toBe(200);
  });

  it('truncates streamed MCP answers too', async () => {
    const emulator = await start();
    emulator.faults.set({ routes: ['POST /mcp tools/call'], truncate: true, times: 1 });
    await expect(searchCatalog(emulator.mcpUrl, { query: 'shoes' })).rejects.toThrow();
    expect((await searchCatalog(emulator.mcpUrl, { query: 'shoes' })).status).toBe(200);
  });

  it('drops an MCP tool call after answering it: counted once, no answer', async () => {
    const emulator = await start();
    emulator.faults.set({ routes: ['POST /mcp tools/call'], drop: 'after', times: 1 });
    await expect(searchCatalog(emulator.mcpUrl, { query: 'shoes' })).rejects.toThrow(TypeError);
    expect(emulator.stats.count('POST /mcp tools/call')).toBe(1);
    expect((await searchCatalog(emulator.mcpUrl, { query: 'shoes' })).status).toBe(200);
  });

  it('scopes MCP faults by JSON-RPC method', async () => {
    const emulator = await start();
    emulator.faults.set({ routes: ['POST /mcp tools/call'], status: 500 });
    const list = await rpc(emulator.mcpUrl, 'tools/list', {});
    expect(list.status).toBe(200);
    await expect(searchCatalog(emulator.mcpUrl, { query: 'shoes' })).resolves.toMatchObject({
      status: 500,
    });
  });

  it('rejects impossible rules', async () => {
    const emulator = await start();
    expect(() => emulator.faults.set({ rate: 2 })).toThrow(RangeError);
    expect(() => emulator.faults.set({ status: 200 })).toThrow(/status/);
    expect(() => emulator.faults.set({ times: 0 })).toThrow(/times/);
  });
});
