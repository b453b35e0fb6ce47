import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient, ProtocolError } from '../src/index.js';
import { rpcIdOf, TEST_KEY, toolsCallAnswer } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let home: TestServer;
let elsewhere: TestServer;
let logLines: string[];
let client: CatalogClient;

beforeEach(async () => {
  home = await startTestServer();
  elsewhere = await startTestServer((_request, response) =>
    sendJson(response, 200, { websites: [] }),
  );
  logLines = [];
  const record = (message: string, context?: unknown) =>
    logLines.push(`${message} ${JSON.stringify(context)}`);
  client = new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: home.origin,
    mcpUrl: home.origin,
    logger: { debug: record, info: record, warn: record, error: record },
  });
});
afterEach(() => Promise.all([home.close(), elsewhere.close()]));

function everything(error: unknown): string {
  const value = error as Error & Record<string, unknown>;
  return [String(value), value.stack, inspect(value, { depth: 10 }), JSON.stringify(value)].join(
    '\n',
  );
}

describe('the key never leaks', () => {
  it('not through JSON.stringify, util.inspect, String or enumeration of the client', () => {
    expect(JSON.stringify(client)).not.toContain(TEST_KEY);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(TEST_KEY);
    expect(JSON.stringify(client.websites)).not.toContain(TEST_KEY);
    expect(inspect(client.catalog, { depth: 10, showHidden: true })).not.toContain(TEST_KEY);
    expect(
      Object.values(client)
        .map((value) => inspect(value, { depth: 10 }))
        .join(),
    ).not.toContain(TEST_KEY);
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({
      apiKey: '[redacted]',
      baseUrl: home.origin,
    });
  });

  it('not through an error whose detail, headers and body echo the key', async () => {
    home.handle((_request, response) =>
      sendJson(response, 401, { detail: `Invalid API key ${TEST_KEY}` }, { 'x-echo': TEST_KEY }),
    );
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error.detail).toBe('Invalid API key [redacted]');
    expect(error.headers['x-echo']).toBe('[redacted]');
    expect(everything(error)).not.toContain(TEST_KEY);
  });

  it('not through a ProtocolError quoting an HTML body or a JSON-RPC error echoing it', async () => {
    home.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<p>bad key ${TEST_KEY}</p>`);
    });
    const protocol = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(protocol).toBeInstanceOf(ProtocolError);
    expect(everything(protocol)).not.toContain(TEST_KEY);

    home.handle((request, response) =>
      sendJson(response, 200, {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        error: { code: -32603, message: `failed for ${TEST_KEY}`, data: { key: TEST_KEY } },
      }),
    );
    const rpc = await client.catalog.search({ query: 'x' }).catch((caught) => caught);
    expect(everything(rpc)).not.toContain(TEST_KEY);
  });

  it('not through a tool error whose content echoes the key', async () => {
    home.handle((request, response) =>
      sendJson(response, 200, {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        result: { isError: true, content: [{ type: 'text', text: `no access for ${TEST_KEY}` }] },
      }),
    );
    const error = await client.catalog.search({ query: 'x' }).catch((caught) => caught);
    expect(error.messages).toEqual(['no access for [redacted]']);
    expect(everything(error)).not.toContain(TEST_KEY);
  });

  it('nor a bearer token of a low-level request (a conversation token)', async () => {
    const token = 'ctok_7f3a9c1e5b2d4860';
    const bearer = { type: 'bearer', token } as const;
    const turn = { operation: 'turn', method: 'POST', path: '/v1/t', retry: 'once' } as const;
    home.handle((_request, response) =>
      sendJson(response, 401, { detail: `expired token ${token}` }, { 'x-echo': token }),
    );
    const refused = await client.request({ ...turn, auth: bearer }).catch((caught) => caught);
    expect(refused.detail).toBe('expired token [redacted]');
    expect(everything(refused)).not.toContain(token);

    home.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<p>hello ${token}</p>`);
    });
    const protocol = await client.request({ ...turn, auth: bearer }).catch((caught) => caught);
    expect(protocol).toBeInstanceOf(ProtocolError);
    expect(everything(protocol)).not.toContain(token);
  });

  it('not through log lines', async () => {
    let call = 0;
    home.handle((_request, response) =>
      call++ === 0
        ? sendJson(response, 503, { detail: `down ${TEST_KEY}` }, { 'retry-after': '0' })
        : sendJson(response, 200, { websites: [] }),
    );
    await client.websites.search({ query: 'nike' });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(TEST_KEY);
  });
});

describe('the low-level request stays on the base URL', () => {
  it('refuses a path that would change the host, and sends nothing', async () => {
    const bare = new CatalogClient({ apiKey: TEST_KEY, baseUrl: home.origin });
    const host = new URL(elsewhere.origin).host;
    for (const path of [`@${host}/v1/x`, 'v1/x']) {
      await expect(
        bare.request({ operation: 'custom', method: 'GET', path, retry: 'idempotent' }),
      ).rejects.toThrow(/path must start with "\/" and stay on the base URL/);
    }
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('redirects', () => {
  it('a same-origin redirect is followed with the key', async () => {
    home.handle((request, response) => {
      if (request.url.startsWith('/old')) {
        response.writeHead(307, { location: '/new/v1/websites/search?query=nike' });
        return response.end();
      }
      sendJson(response, 200, { websites: [{ id: 'w', url: 'https://w' }] });
    });
    const moved = new CatalogClient({ apiKey: TEST_KEY, baseUrl: `${home.origin}/old` });
    const answer = await moved.websites.search({ query: 'nike' });
    expect(answer.websites).toHaveLength(1);
    expect(home.requests.map((request) => [request.url, request.headers['x-api-key']])).toEqual([
      ['/old/v1/websites/search?query=nike', TEST_KEY],
      ['/new/v1/websites/search?query=nike', TEST_KEY],
    ]);
  });

  it('a 307 keeps the method and body of a catalog search', async () => {
    home.handle((request, response) => {
      if (request.url === '/mcp') {
        response.writeHead(307, { location: '/v2/mcp' });
        return response.end();
      }
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), {
        'x-ucp-auth-tier': 'token',
      });
    });
    await client.catalog.search({ query: 'x' });
    expect(home.requests[1]?.method).toBe('POST');
    expect(home.requests[1]?.body).toBe(home.requests[0]?.body);
  });

  it('a cross-origin redirect is not followed: the other origin gets nothing', async () => {
    home.handle((_request, response) => {
      response.writeHead(302, { location: `${elsewhere.origin}/v1/websites/search?query=nike` });
      response.end();
    });
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    // The target is not named: the server's Location may echo a secret (secrets-echo.test.ts).
    expect(error.message).toContain('redirected to another origin');
    expect(error.message).not.toContain(elsewhere.origin);
    expect(elsewhere.requests).toHaveLength(0);
    expect(everything(error)).not.toContain(TEST_KEY);
  });

  it('a cross-origin redirect of a catalog search is not followed either', async () => {
    home.handle((_request, response) => {
      response.writeHead(308, { location: `${elsewhere.origin}/mcp` });
      response.end();
    });
    await expect(client.catalog.search({ query: 'x' })).rejects.toBeInstanceOf(ProtocolError);
    expect(elsewhere.requests).toHaveLength(0);
  });
});
