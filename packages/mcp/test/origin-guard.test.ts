import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, type MountedHandler, mountInHono } from './support/http-host.js';
import { updateCollection } from './support/inputs.js';

let emulator: RunningEmulator;
let mounted: MountedHandler;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const handle = createCatalogMcpHandler({
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
    allowedOrigins: ['https://app.example'],
    // Unconfirmed changes accepted, as the attacked server had them: only the guard stands
    // between the rebound request and the PATCH.
    confirmChanges: 'annotations-only',
  });
  mounted = await mountInHono(handle);
});

afterAll(async () => {
  await mounted?.close();
  await emulator?.close();
});

const PATCH = 'PATCH /v1/collections/:id';

// node:http, not fetch: fetch does not send a Host header of the caller's choosing.
function callUpdate(headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'update_collection',
      arguments: updateCollection('col_1', { name: 'pwned' }),
    },
  });
  return new Promise((resolve, reject) => {
    const request = httpRequest(mounted.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
    });
    request.on('response', (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The status of a tools/call sent with two `Host` header lines. */
function twoHostHeaders(first: string, second: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'update_collection', arguments: updateCollection('col_1', { name: 'two' }) },
  });
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: ${first}`,
    `Host: ${second}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    'MCP-Protocol-Version: 2025-11-25',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(mounted.url.port), mounted.url.hostname);
    let answer = '';
    socket.on('data', (part: Buffer) => {
      answer += part.toString('utf8');
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])));
    socket.on('error', reject);
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

describe('the HTTP handler checks Origin and Host before any tool runs', () => {
  it('refuses the DNS rebinding request (Origin and Host attacker.example): 403, no PATCH', async () => {
    const before = emulator.stats.count(PATCH);
    const port = mounted.url.port;
    const answer = await callUpdate({
      host: `attacker.example:${port}`,
      origin: `http://attacker.example:${port}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Host is not an allowed host');
    expect(emulator.stats.count(PATCH)).toBe(before);
  });

  // Red-team finding F6: Host was cut at its first ':', so two Host headers joined into
  // "own, attacker" passed. A Host the URL parser does not read back unchanged is a 400.
  it('answers 400 to a Host that is not exactly one host[:port]: no PATCH', async () => {
    const before = emulator.stats.count(PATCH);
    const port = mounted.url.port;
    // Two Host lines, which node:http will not send: written on a socket.
    expect(await twoHostHeaders(`127.0.0.1:${port}`, `attacker.example:${port}`)).toBe(400);
    for (const host of [
      `127.0.0.1:${port}, attacker.example`,
      `localhost:1@attacker.example`,
      `[::1]evil.example:${port}`,
    ]) {
      const answer = await callUpdate({ host });
      // Node's own parser refuses some before the handler sees them: a 400 either way.
      expect(answer.status, host).toBe(400);
    }
    expect(emulator.stats.count(PATCH)).toBe(before);
  });

  it('lets the same call through from a loopback Host without Origin: the PATCH is counted', async () => {
    // The control: without it the two tests above would pass on a handler that never calls.
    const before = emulator.stats.count(PATCH);
    const answer = await callUpdate({});
    expect(answer.status).toBe(200);
    expect(emulator.stats.count(PATCH)).toBe(before + 1);
  });

  it('refuses a foreign Origin on a loopback Host: 403, no PATCH', async () => {
    const before = emulator.stats.count(PATCH);
    const answer = await callUpdate({ origin: 'http://attacker.example' });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Origin is not an allowed origin');
    expect(emulator.stats.count(PATCH)).toBe(before);
  });

  it('refuses Sec-Fetch-Site cross-site even without Origin', async () => {
    const answer = await callUpdate({ 'sec-fetch-site': 'cross-site' });
    expect(answer.status).toBe(403);
  });

  it('accepts the own origin, an allowed origin, and no Origin (a non-browser client)', async () => {
    const ping = (headers: Record<string, string>) =>
      fetch(mounted.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await ping({ origin: mounted.url.origin })).status).toBe(200);
    expect((await ping({ origin: 'https://app.example' })).status).toBe(200);
    expect((await ping({})).status).toBe(200);
    const { client } = await connectHttpClient(mounted.url);
    expect((await client.listTools()).tools).toHaveLength(3);
    await client.close();
  });

  it('throws a ConfigurationError naming the field for a malformed option', () => {
    expect(() => createCatalogMcpHandler({ allowedOrigins: ['app.example/path'] })).toThrow(
      /allowedOrigins/,
    );
    expect(() => createCatalogMcpHandler({ allowedHosts: ['host:80'] })).toThrow(/allowedHosts/);
  });
});

describe('the per-client rate limit', () => {
  it('answers 429 past the limit per key, and forgets the oldest key beyond maxClients', async () => {
    const handle = createCatalogMcpHandler({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
      rateLimit: { key: (r) => r.headers.get('x-client') ?? '', limit: 2, maxClients: 2 },
    });
    const limitedMount = await mountInHono(handle);
    const ping = (client: string) =>
      fetch(limitedMount.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-client': client,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }).then((answer) => answer.status);
    expect([await ping('a'), await ping('a'), await ping('a')]).toEqual([200, 200, 429]);
    expect(await ping('b')).toBe(200);
    // A third key evicts 'a' (least recently seen): it starts a fresh window.
    expect(await ping('c')).toBe(200);
    expect(await ping('a')).toBe(200);
    expect(() => createCatalogMcpHandler({ rateLimit: { key: () => '', limit: 0 } })).toThrow(
      /rateLimit\.limit/,
    );
    await limitedMount.close();
  });
});
