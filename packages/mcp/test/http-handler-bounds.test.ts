import { ConfigurationError } from '@catalogkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogMcpHandlerOptions, createCatalogMcpHandler } from '../src/index.js';
import { openServerCount } from '../src/request-scope.js';
import { callBody, eventually, MCP_HEADERS } from './support/hanging-tool.js';
import { type MountedHandler, mountInHono } from './support/http-host.js';
import { rawPost } from './support/raw-http.js';
import { type StalledService, startStalledService } from './support/stalled-service.js';

/*
 * What one hostile client can make a request cost: bytes held, time held, calls made to the
 * catalog service. Each is bounded by the handler, whatever host serves it, and refused with
 * a JSON-RPC error and a 4xx status. Over real HTTP on loopback (Hono on Node).
 */

let service: StalledService;
let mounted: MountedHandler;
const limits = { maxBodyBytes: 64 * 1024, bodyTimeoutMs: 400, maxBatchSize: 10 };

beforeAll(async () => {
  service = await startStalledService();
  const handle = createCatalogMcpHandler({
    ...limits,
    clientOptions: { apiKey: 'ck_test_bounds', baseUrl: service.baseUrl, mcpUrl: service.mcpUrl },
  });
  mounted = await mountInHono(handle);
});

afterAll(async () => {
  await mounted?.close();
  await service?.close();
});

function errorOf(body: string): { code: number; message: string } {
  const answer = JSON.parse(body) as {
    jsonrpc: string;
    id: unknown;
    error: { code: number; message: string };
  };
  expect(answer).toMatchObject({ jsonrpc: '2.0', id: null });
  return answer.error;
}

const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const websitesArgs = { query: 'outdoor', limit: null, category_ids: null, country: null };

describe('the HTTP handler bounds what one request may cost', () => {
  it('refuses a body declared too large without reading it', async () => {
    const answer = await rawPost(mounted.url, {
      chunk: new Uint8Array(1024),
      chunks: 1,
      everyMs: 10_000,
      headers: { 'content-length': String(limits.maxBodyBytes + 1) },
    });
    expect(answer.status).toBe(413);
    expect(errorOf(answer.body).message).toMatch(/at most 65536 bytes/);
  });

  it('stops reading an endless body once it passes the limit', async () => {
    const answer = await rawPost(mounted.url, {
      chunk: new TextEncoder().encode(' '.repeat(16 * 1024)),
      chunks: 10_000,
      everyMs: 1,
    });
    expect(answer.status).toBe(413);
    expect(errorOf(answer.body).code).toBe(-32600);
    // Answered soon after the limit, not after the 160 MB the client would send.
    expect(answer.sentBytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('answers 408 to a body that trickles in slower than bodyTimeoutMs', async () => {
    const answer = await rawPost(mounted.url, {
      chunk: new TextEncoder().encode(' '),
      chunks: 1_000,
      everyMs: 50,
    });
    expect(answer.status).toBe(408);
    expect(errorOf(answer.body).message).toBe('Request body not received within 400 ms.');
    // 400 ms of trickle, generous for loaded cores; without the bound: 50 s.
    expect(answer.elapsedMs).toBeLessThan(10_000);
    expect(openServerCount()).toBe(0);
  });

  it('refuses a batch longer than maxBatchSize before any tool call reaches the service', async () => {
    const before = service.received;
    const batch = Array.from({ length: 11 }, (_, i) =>
      JSON.parse(callBody(i, 'search_websites', websitesArgs)),
    );
    const response = await fetch(mounted.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(400);
    expect(errorOf(await response.text()).message).toBe(
      'Invalid Request: a batch of 11 messages; at most 10.',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(service.received).toBe(before);
  });

  it('answers a batch within the limit, and refuses an empty one', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => list(i));
    const response = await fetch(mounted.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify(batch),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(10);
    const empty = await fetch(mounted.url, { method: 'POST', headers: MCP_HEADERS, body: '[]' });
    expect(empty.status).toBe(400);
    expect(errorOf(await empty.text()).message).toBe('Invalid Request: empty batch.');
  });

  it('answers a batch that cancels its own request at once, instead of never', async () => {
    // The SDK drops the answer of a cancelled request, and in a stateless server only a
    // request of the same batch can be cancelled: the response would never end.
    const batch = [
      list(1),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    ];
    const response = await fetch(mounted.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify(batch),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(400);
    expect(errorOf(await response.text()).message).toBe(
      'Invalid Request: notifications/cancelled inside a batch.',
    );
  });

  it('refuses a body that is not UTF-8 JSON', async () => {
    for (const body of [new Uint8Array([0x7b, 0xff, 0x7d]), new TextEncoder().encode('{"a":')]) {
      const response = await fetch(mounted.url, { method: 'POST', headers: MCP_HEADERS, body });
      expect(response.status).toBe(400);
      expect(errorOf(await response.text()).code).toBe(-32700);
    }
  });

  it('answers deeply nested and huge-id requests within the body limit, without crashing', async () => {
    const depth = 30_000;
    const nested = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_websites","arguments":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const deep = await fetch(mounted.url, { method: 'POST', headers: MCP_HEADERS, body: nested });
    expect(deep.status).toBeLessThan(500);
    await deep.text();
    const id = 'i'.repeat(limits.maxBodyBytes - 200);
    const huge = await fetch(mounted.url, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({ ...list(0), id }),
    });
    expect(huge.status).toBe(200);
    expect(((await huge.json()) as { id: string }).id).toBe(id);
    await eventually(() => openServerCount() === 0);
    expect(openServerCount()).toBe(0);
  });
});

describe('the limits are options, checked when the handler is made', () => {
  it.each([
    ['maxBodyBytes', 0],
    ['maxBodyBytes', 1.5],
    ['bodyTimeoutMs', -1],
    ['bodyTimeoutMs', 2 ** 31],
    ['maxBatchSize', Number.NaN],
    ['maxBatchSize', '10'],
  ])('refuses %s %s, naming it', (name, value) => {
    const options = { [name]: value } as unknown as CatalogMcpHandlerOptions;
    expect(() => createCatalogMcpHandler(options)).toThrowError(ConfigurationError);
    expect(() => createCatalogMcpHandler(options)).toThrowError(new RegExp(`${name} must be`));
  });
});
