import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpError } from '../src/errors/index.js';
import { CatalogClient, ProtocolError } from '../src/index.js';
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

  it('stops after 10 pages when the cursor never ends', async () => {
    server.handle((request, response) => {
      const result = { tools: [{ name: 'search_catalog' }], nextCursor: 'again' };
      sendJson(response, 200, { jsonrpc: '2.0', id: rpcIdOf(request.body), result }, tier);
    });
    expect(await client().catalog.tools()).toEqual(['search_catalog']);
    expect(server.requests).toHaveLength(10);
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
