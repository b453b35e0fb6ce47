import { createServer, type Server } from 'node:net';
import { CatalogClient, ConfigurationError, StoreUnavailableError } from '@catalogkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAiMajor } from './support/ui-stream.js';

/**
 * What `next build` does to the route: imports it, with no CATALOG_* or OPENAI_* settings and
 * no Redis. A loopback listener stands where Redis would be and counts the connections made to
 * it (it answers none, and closes each at once).
 */
describe('the Next.js route imports without settings and without I/O', () => {
  let listener: Server;
  let connections = 0;
  beforeAll(async () => {
    assertAiMajor();
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const address = listener.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    for (const name of ['CATALOG_API_KEY', 'CATALOG_BASE_URL', 'CATALOG_MCP_URL']) {
      delete process.env[name];
    }
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete process.env[name];
    process.env.REDIS_URL = `redis://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener?.close(resolve));
  });

  it('builds the client, the tools and the Redis store at import, connecting to nothing', async () => {
    const route = await import('../flows/next/app/api/chat/route.js');
    expect(typeof route.POST).toBe('function');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(connections).toBe(0);

    // The first store command connects, and its failure is the store's typed error.
    const { store } = await import('../flows/next/store.js');
    await expect(store.get('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(connections).toBeGreaterThan(0);
  });

  it('checks the settings at the first call, with a ConfigurationError naming the variable', async () => {
    const before = connections;
    const client = new CatalogClient();
    const search = client.catalog.search({ query: 'tents' });
    await expect(search).rejects.toBeInstanceOf(ConfigurationError);
    await expect(search).rejects.toThrow(/CATALOG_MCP_URL/);
    // The tools' own first-call check: packages/core/test/tools-first-hour.test.ts.
    const call = client.websites.search({ query: 'outdoor' });
    await expect(call).rejects.toBeInstanceOf(ConfigurationError);
    await expect(call).rejects.toThrow(/CATALOG_BASE_URL/);
    expect(connections).toBe(before); // refused before any I/O
  });
});
