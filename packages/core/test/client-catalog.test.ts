import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogToolError, McpError } from '../src/errors/index.js';
import { MAX_JSON_DEPTH } from '../src/http/response-body.js';
import { CatalogClient, ProtocolError, RateLimitError } from '../src/index.js';
import { CATALOG_LIMIT_MAX, CATALOG_VARIANTS_MAX } from '../src/schemas/catalog.js';
import {
  catalogPayload,
  rpcIdOf,
  TEST_KEY,
  TRICKY_BUY_LINK,
  toolsCallAnswer,
} from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

function clientWith(options: ConstructorParameters<typeof CatalogClient>[0] = {}) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    mcpUrl: `${server.origin}/ucp`,
    maxRetries: 0,
    ...options,
  });
}

function sendSse(response: ServerResponse, events: string[], headers: Record<string, string> = {}) {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'x-ucp-auth-tier': 'token',
    ...headers,
  });
  response.end(events.join(''));
}

const tier = { 'x-ucp-auth-tier': 'token' };

describe('catalog.search request', () => {
  it('POSTs one tools/call to /mcp exactly as the contract shows, with no initialize', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), tier),
    );
    await clientWith().catalog.search({
      query: 'trail shoes',
      pagination: { limit: 3 },
      placements: ['affiliate'],
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/ucp/mcp');
    expect(request?.headers.accept).toBe('application/json, text/event-stream');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-api-key']).toBe(TEST_KEY);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      jsonrpc: '2.0',
      id: expect.anything(),
      method: 'tools/call',
      params: {
        name: 'search_catalog',
        arguments: {
          meta: null,
          catalog: { query: 'trail shoes', pagination: { limit: 3 }, placements: ['affiliate'] },
        },
      },
    });
  });

  it('passes meta through', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), tier),
    );
    const meta = { 'ucp-agent': { profile: 'https://agent.example/profile' } };
    await clientWith().catalog.search({ query: 'x' }, { meta });
    expect(JSON.parse(server.requests[0]?.body ?? '').params.arguments.meta).toEqual(meta);
  });

  it('sends the key as Authorization: Bearer when configured', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), tier),
    );
    await clientWith({ mcpAuthHeader: 'bearer' }).catalog.search({ query: 'x' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('works without a key: no credential header, anonymous tier', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), {
        'x-ucp-auth-tier': 'anonymous',
      }),
    );
    const anonymous = new CatalogClient({ mcpUrl: `${server.origin}/ucp` });
    const { tier: applied } = await anonymous.catalog.search({ query: 'x' });
    expect(applied).toBe('anonymous');
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('catalog.search answers', () => {
  it('parses a JSON answer: tier from the header, unknown fields kept, buy link byte-for-byte', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), tier),
    );
    const { result, tier: applied } = await clientWith().catalog.search({ query: 'x' });
    expect(applied).toBe('token');
    expect(result).toEqual(catalogPayload());
    expect(result.products[0]?.variants[0]?.url).toBe(TRICKY_BUY_LINK);
  });

  it('parses an SSE answer after a priming event and a notification', async () => {
    server.handle((request, response) => {
      const id = rpcIdOf(request.body);
      const notification = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progress: 1 },
      };
      sendSse(response, [
        'id: prime-1\ndata:\n\n',
        `event: message\ndata: ${JSON.stringify(notification)}\n\n`,
        `event: message\nid: e2\ndata: ${JSON.stringify(toolsCallAnswer(id))}\n\n`,
      ]);
    });
    const { result, tier: applied } = await clientWith().catalog.search({ query: 'x' });
    expect(result).toEqual(catalogPayload());
    expect(applied).toBe('token');
  });

  it('takes the SSE answer as soon as it arrives, even if the stream stays open', async () => {
    server.handle((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-ucp-auth-tier': 'token' });
      response.write(`data: ${JSON.stringify(toolsCallAnswer(rpcIdOf(request.body)))}\n\n`);
    });
    const { result } = await clientWith({ timeoutMs: 5_000 }).catalog.search({ query: 'x' });
    expect(result.products).toHaveLength(1);
  });

  it('reads a last SSE event that lacks its closing blank line', async () => {
    server.handle((request, response) =>
      sendSse(response, [`data: ${JSON.stringify(toolsCallAnswer(rpcIdOf(request.body)))}`]),
    );
    const { result } = await clientWith().catalog.search({ query: 'x' });
    expect(result.products).toHaveLength(1);
  });

  it('a JSON answer with the wrong id is a ProtocolError', async () => {
    server.handle((_request, response) =>
      sendJson(response, 200, toolsCallAnswer('someone-else'), tier),
    );
    const error = await clientWith()
      .catalog.search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('different JSON-RPC id');
    // The server's id is not quoted: it could be an echoed secret.
    expect(error.message).not.toContain('someone-else');
  });

  it('an SSE answer with the wrong id is a ProtocolError', async () => {
    server.handle((_request, response) =>
      sendSse(response, [`data: ${JSON.stringify(toolsCallAnswer(999))}\n\n`]),
    );
    await expect(clientWith().catalog.search({ query: 'x' })).rejects.toBeInstanceOf(ProtocolError);
  });

  it('an SSE stream that ends without the answer is a ProtocolError', async () => {
    const notification = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
    server.handle((_request, response) =>
      sendSse(response, [`data: ${JSON.stringify(notification)}\n\n`]),
    );
    const error = await clientWith()
      .catalog.search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('ended without the answer');
  });

  it('a JSON-RPC error is an McpError with rpcCode and data', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        error: { code: -32602, message: 'Invalid params', data: { field: 'catalog.query' } },
      }),
    );
    const error = await clientWith()
      .catalog.search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ rpcCode: -32602, data: { field: 'catalog.query' } });
  });

  it('a JSON-RPC error in a 400 body is an McpError too', async () => {
    server.handle((_request, response) =>
      sendJson(response, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Bad request' },
      }),
    );
    await expect(clientWith().catalog.search({ query: 'x' })).rejects.toMatchObject({
      rpcCode: -32600,
    });
  });

  it('-32000 with data.retry_after is a RateLimitError', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        error: { code: -32000, message: 'Rate limit exceeded', data: { retry_after: 3600 } },
      }),
    );
    const error = await clientWith()
      .catalog.search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(3_600_000);
  });

  it('an isError result is a CatalogToolError keeping the messages and content', async () => {
    const content = [{ type: 'text', text: 'catalog backend unavailable' }];
    server.handle((request, response) =>
      sendJson(response, 200, {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        result: { isError: true, content },
      }),
    );
    const error = await clientWith()
      .catalog.search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(CatalogToolError);
    expect(error.messages).toEqual(['catalog backend unavailable']);
    expect(error.content).toEqual(content);
  });

  it('falls back to the JSON copy in content when structuredContent is absent', async () => {
    server.handle((request, response) => {
      const answer = toolsCallAnswer(rpcIdOf(request.body));
      const { structuredContent: _dropped, ...result } = answer.result;
      sendJson(response, 200, { ...answer, result }, tier);
    });
    const { result } = await clientWith().catalog.search({ query: 'x' });
    expect(result.products[0]?.variants[0]?.url).toBe(TRICKY_BUY_LINK);
  });

  // S2: a hostile catalog answers 10 000 products to `limit: 3`, or one product with 30 000
  // variants: the client keeps what was asked for, so everything downstream is bounded.
  it('keeps at most the requested limit of products and CATALOG_VARIANTS_MAX variants each (S2)', async () => {
    const variants = Array.from({ length: 30_000 }, (_, index) => ({
      id: `v${index}`,
      title: `v${index}`,
      url: `https://shop.example/${index}`,
      price: { amount: 1999, currency: 'USD' },
    }));
    const products = Array.from({ length: 10_000 }, (_, index) => ({
      id: `p${index}`,
      title: `P${index}`,
      variants: index === 0 ? variants : variants.slice(0, 2),
    }));
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body), { products }), tier),
    );
    const client = clientWith({ maxResponseBytes: 64 * 1024 * 1024 });
    const { result } = await client.catalog.search({ query: 'x', pagination: { limit: 3 } });
    expect(result.products.map((product) => product.id)).toEqual(['p0', 'p1', 'p2']);
    expect(result.products[0]?.variants).toHaveLength(CATALOG_VARIANTS_MAX);
    expect(result.products[0]?.variants[19]?.url).toBe('https://shop.example/19');
    expect(result.products[1]?.variants).toHaveLength(2);
    // Without a limit: the most the client ever asks for.
    const unasked = await client.catalog.search({ query: 'x' });
    expect(unasked.result.products).toHaveLength(CATALOG_LIMIT_MAX);
    // Asking for more is sent as asked (the service clamps too) and kept to the bound.
    const more = await client.catalog.search({ query: 'x', pagination: { limit: 1_000 } });
    expect(more.result.products).toHaveLength(CATALOG_LIMIT_MAX);
    expect(JSON.parse(server.requests.at(-1)?.body ?? '{}').params.arguments.catalog).toEqual({
      query: 'x',
      pagination: { limit: 1_000 },
    });
  });

  // S3: a value nested thousands deep overflows every recursive walk downstream (the MCP
  // SDK's JSON.stringify hung the call for the client's timeout); it is refused at the parse.
  it('refuses JSON nested past MAX_JSON_DEPTH with a ProtocolError naming it, JSON and SSE (S3)', async () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const body = (id: unknown, depth: number) =>
      `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[],"structuredContent":{"products":[{"id":"p","title":"Deep [[[[{{{{\\"[[[[","variants":[],"metadata":${deep(depth)}}]}}}`;
    let sse = false;
    let depth = 100_000;
    server.handle((request, response) => {
      const text = body(rpcIdOf(request.body), depth);
      if (sse) sendSse(response, [`data: ${text}\n\n`]);
      else {
        response.writeHead(200, { 'content-type': 'application/json', ...tier });
        response.end(text);
      }
    });
    const client = clientWith();
    const started = performance.now();
    const refused = await client.catalog.search({ query: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProtocolError);
    expect((refused as Error).message).toMatch(/nested deeper than 64 levels/);
    expect(performance.now() - started).toBeLessThan(5_000);
    sse = true;
    await expect(client.catalog.search({ query: 'x' })).rejects.toThrow(/nested deeper than 64/);
    // Brackets inside strings do not count, and 64 levels in all still parse (the control):
    // the envelope down to `metadata` is 5 levels.
    depth = MAX_JSON_DEPTH - 5;
    sse = false;
    const { result } = await client.catalog.search({ query: 'x' });
    expect(result.products[0]?.title).toBe('Deep [[[[{{{{"[[[[');
    depth = MAX_JSON_DEPTH - 4;
    await expect(client.catalog.search({ query: 'x' })).rejects.toThrow(/nested deeper/);
  });

  it('an HTML answer from a proxy is a ProtocolError', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>captive portal</html>');
    });
    await expect(clientWith().catalog.search({ query: 'x' })).rejects.toBeInstanceOf(ProtocolError);
  });

  it('a missing tier header is reported as anonymous and logged', async () => {
    const warnings: string[] = [];
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body))),
    );
    const client = clientWith({ logger: { warn: (message) => warnings.push(message) } });
    const { tier: applied } = await client.catalog.search({ query: 'x' });
    expect(applied).toBe('anonymous');
    expect(warnings.join('\n')).toContain('x-ucp-auth-tier');
  });
});
