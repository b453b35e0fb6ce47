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
      clientOptions: { apiKey: emulator.keys.valid, baseUrl: emulator.baseUrl, maxRetries, store },
      include: ['search_websites'],
    }),
  );
  return (await connectHttpClient(host.url)).client;
}

describe('the store of the client the MCP server builds', () => {
  it('reaches the client it builds: the pause one instance met is shared through it', async () => {
    const written: string[] = [];
    const store = new (class extends MemoryCatalogStore {
      override set(key: string, value: string, ttlMs?: number) {
        written.push(key);
        return super.set(key, value, ttlMs);
      }
    })();
    const route = 'GET /v1/websites/search';
    emulator.faults.set({ routes: [route], status: 429, retryAfterSeconds: 2, times: 1 });
    const first = await instance(store, 0);
    const limited = await first.callTool({ name: 'search_websites', arguments: { query: 'nike' } });
    expect(textOf(limited)).toContain('Rate limit');
    // Written where every instance's changes read it before sending.
    expect(written.filter((key) => key.startsWith('catalogkit:rate-limit:rest:'))).toHaveLength(1);
    emulator.faults.clear();
  });
});
