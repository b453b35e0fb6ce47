import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpError } from '../src/errors/index.js';
import { CatalogClient, ProtocolError, RateLimitError, TimeoutError } from '../src/index.js';
import { rpcIdOf, TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// A service that misbehaves around tools/list: paging, looping cursors, odd answers.
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const client = () =>
  new CatalogClient({ apiKey: TEST_KEY, mcpUrl: `${server.origin}/ucp`, maxRetries: 0 });
const tier = { 'x-ucp-auth-tier': 'token' };
const rpc = (body: string) => JSON.parse(body) as { method: string; params: { cursor?: string } };

describe('catalog.tools against a service that pages, loops or answers oddly', () => {
  it('follows nextCursor, keeps the order, drops repeated names', async () => {
    server.handle((request, response) => {
      const page = rpc(request.body).params.cursor;
      const tools = page
        ? [{ name: 'get_product' }, { name: 'search_catalog' }]
        : [{ name: 'search_catalog' }, { name: 'lookup_catalog' }];
      const result = page ? { tools } : { tools, nextCursor: 'p2' };
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result }, tier);
    });
    expect(await client().catalog.tools()).toEqual([
      'search_catalog',
      'lookup_catalog',
      'get_product',
    ]);
    expect(server.requests.map((r) => rpc(r.body).method)).toEqual(['tools/list', 'tools/list']);
  });

  // Red team 37 F4: names on an 11th page would be silently "not offered"; refused instead.
  it('refuses a cursor that never ends with a ProtocolError after 10 pages', async () => {
    server.handle((request, response) => {
      const result = { tools: [{ name: 'search_catalog' }], nextCursor: 'again' };
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result }, tier);
    });
    const error = await client()
      .catalog.tools()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(String(error)).toMatch(/nextCursor after 10 pages/);
    expect(server.requests).toHaveLength(10);
  });

  // Red team 37 F4: a 200,000-entry page (2.6 MB) crashed with RangeError (a spread).
  it('a page over 1,000 tools is a ProtocolError, never a RangeError; 1,000 pass', async () => {
    let count = 200_000;
    server.handle((request, response) => {
      const tools = Array.from({ length: count }, (_, i) => ({ name: `tool_${i}` }));
      sendJson(
        response,
        200,
        { jsonrpc: '2.0', id: rpcIdOf(request.body), result: { tools } },
        tier,
      );
    });
    const error = await client()
      .catalog.tools()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(String(error)).toMatch(/more than 1000 tools/);
    count = 1000;
    expect(await client().catalog.tools()).toHaveLength(1000);
  });

  // Red team 37 F4: answers are parsed leniently; one odd entry does not lose the others.
  it('skips an entry whose name is not text', async () => {
    server.handle((request, response) => {
      const tools = [{ name: 42 }, null, { title: 'x' }, { name: 'lookup_catalog' }];
      sendJson(
        response,
        200,
        { jsonrpc: '2.0', id: rpcIdOf(request.body), result: { tools } },
        tier,
      );
    });
    expect(await client().catalog.tools()).toEqual(['lookup_catalog']);
  });

  // Red team 37 F4: `serviceTools: await client.catalog.tools()` keeps today's tool set.
  it('a service without tools/list (-32601) lists no tools: []', async () => {
    server.handle((request, response) => {
      const error = { code: -32601, message: 'Method not found' };
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), error }, tier);
    });
    const catalog = client().catalog;
    expect(await catalog.tools()).toEqual([]);
    await expect(catalog.lookup({ ids: ['p1'] })).rejects.toBeInstanceOf(McpError);
    expect(server.requests).toHaveLength(1);
  });

  // Red team 37 F4: each page had its own timeout (10 x 400 ms pages took 4 s with 1 s).
  it('timeoutMs covers every page: one deadline for the whole discovery', async () => {
    server.handle((request, response) => {
      const result = { tools: [{ name: 'search_catalog' }], nextCursor: 'next' };
      const answer = { jsonrpc: '2.0', id: rpcIdOf(request.body), result };
      setTimeout(() => sendJson(response, 200, answer, tier), 300);
    });
    const started = performance.now();
    await expect(client().catalog.tools({ timeoutMs: 1000 })).rejects.toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it('an answer without a tool list is a ProtocolError, forgotten: the next call asks again', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result: {} }, tier),
    );
    const catalog = client().catalog;
    await expect(catalog.tools()).rejects.toBeInstanceOf(ProtocolError);
    server.handle((request, response) => {
      const result = { tools: [{ name: 'search_catalog' }] };
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result }, tier);
    });
    expect(await catalog.tools()).toEqual(['search_catalog']);
    // Listed without lookup_catalog: the typed call refuses and sends no tools/call.
    await expect(catalog.lookup({ ids: ['p1'] })).rejects.toBeInstanceOf(McpError);
    expect(server.requests.map((r) => rpc(r.body).method)).toEqual(['tools/list', 'tools/list']);
  });
});

// Red team 37 F7: the MCP rate-limit surface was any `catalog.` prefix, so a REST call named
// `catalog.*` that met a 429 paused the MCP endpoint. The MCP operations are an exact list.
describe('the MCP operations are an exact list', () => {
  it('a 429 on a REST call named catalog.* pauses REST, not the MCP endpoint', async () => {
    server.handle((request, response) => {
      if (request.url.startsWith('/v1/')) {
        return sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '600' });
      }
      const result = { tools: [{ name: 'search_catalog' }] };
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result }, tier);
    });
    const limited = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      mcpUrl: `${server.origin}/ucp`,
      maxRetries: 0,
    });
    const body = { user_id: 'u1' };
    const order = {
      operation: 'catalog.createOrder',
      method: 'POST',
      path: '/v1/orders',
      body,
    } as const;
    await expect(limited.request({ ...order, retry: 'once' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(await limited.catalog.tools()).toEqual(['search_catalog']);
    expect(server.requests).toHaveLength(2);
  });
});
