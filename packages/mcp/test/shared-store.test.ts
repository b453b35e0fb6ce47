import { MemoryCatalogStore } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { textOf } from './support/inputs.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

/** One MCP server instance with its own client built from `clientOptions`. */
async function instance(store: MemoryCatalogStore, maxRetries: number) {
  const host = await mountInHono(
    createCatalogMcpHandler({
      clientOptions: { apiKey: emulator.keys.valid, baseUrl: emulator.baseUrl, maxRetries },
      include: ['search_websites'],
      store,
    }),
  );
  return (await connectHttpClient(host.url)).client;
}

describe('the store option of the MCP server', () => {
  it('reaches the client it builds: a 429 one instance met pauses the other until the reset', async () => {
    const store = new MemoryCatalogStore();
    const route = 'GET /v1/websites/search';
    emulator.faults.set({ routes: [route], status: 429, retryAfterSeconds: 2, times: 1 });
    const before = emulator.stats.count(route);
    const first = await instance(store, 0);
    const limited = await first.callTool({ name: 'search_websites', arguments: { query: 'nike' } });
    expect(textOf(limited)).toContain('Rate limit');
    const limitedAt = performance.now();
    const second = await instance(store, 2);
    const answer = await second.callTool({ name: 'search_websites', arguments: { query: 'nike' } });
    expect(answer.isError).toBeFalsy();
    // It waited for the reset rather than sending into the limit.
    expect(performance.now() - limitedAt).toBeGreaterThanOrEqual(1_500);
    expect(emulator.stats.count(route) - before).toBe(2);
    emulator.faults.clear();
  });
});
