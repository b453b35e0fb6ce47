import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { openServerCount } from '../src/request-scope.js';
import { runningToolCallCount } from '../src/server.js';
import {
  callBody,
  eventually,
  type HangingCalls,
  hangingTool,
  MCP_HEADERS,
} from './support/hanging-tool.js';
import { type MountedHandler, mountInHono } from './support/http-host.js';
import { type StalledService, startStalledService } from './support/stalled-service.js';

/*
 * Every request's server must close however its response ends, or the tool calls still
 * running for it go on (spending the key) and hold the server, its transport and streams:
 * issue 23 saw the heap grow from 41 MB to 270 MB over 6,000 SSE requests whose bodies were
 * cancelled unread. Each test drives the handler over real HTTP on loopback (Hono on Node).
 */

// Stands for any catalog call: the service is never reached by this tool.
const clientOptions = {
  apiKey: 'ck_test_lifecycle',
  baseUrl: 'http://127.0.0.1:9/api',
  mcpUrl: 'http://127.0.0.1:9/ucp',
};

let service: StalledService;

beforeAll(async () => {
  service = await startStalledService();
});

afterAll(async () => {
  await service?.close();
});

interface Host {
  mounted: MountedHandler;
  calls: HangingCalls;
}

async function hostWith(sse: boolean): Promise<Host> {
  const { tool, calls } = hangingTool();
  const handle = createCatalogMcpHandler({ sse, clientOptions, tools: [tool] });
  return { mounted: await mountInHono(handle), calls };
}

/** Runs `count` requests, `concurrency` at a time. */
async function inParallel(
  count: number,
  concurrency: number,
  one: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await one(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Starts a hanging call tagged `tag`; resolves with its response once the tool runs. */
async function startCall(host: Host, tag: string): Promise<Response> {
  const body = callBody(tag, 'wait_for_cancel', { tag });
  const response = fetch(host.mounted.url, { method: 'POST', headers: MCP_HEADERS, body });
  await host.calls.waitForStart(tag);
  return response;
}

describe('the server of each request is closed however its response ends', () => {
  // Every server must be closed, so a single one left open fails the count: 500 keeps 16 in
  // flight for over 30 rounds, at a quarter of the CPU of the 2,000 this first ran.
  it('closes the servers of 500 SSE responses whose bodies are cancelled unread', async () => {
    const host = await hostWith(true);
    const count = 500;
    try {
      await inParallel(count, 16, async (i) => {
        const response = await startCall(host, `cancel-${i}`);
        expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
        await response.body?.cancel();
      });
      await eventually(
        () => host.calls.running === 0 && openServerCount() === 0 && runningToolCallCount() === 0,
        60_000,
      );
      expect(host.calls.started.size).toBe(count);
      // Each cancelled body aborted its running call: no server is left with work in it.
      expect(host.calls.running).toBe(0);
      expect(openServerCount()).toBe(0);
      // Counted by call, not by server: a call its server lost track of still shows here.
      expect(runningToolCallCount()).toBe(0);
    } finally {
      await host.mounted.close();
    }
    // Real HTTP round trips: 60 s was not enough for 2,000 on a busy machine; nothing here is timed.
  }, 240_000);

  it.each([
    ['SSE', true],
    ['JSON', false],
  ])('closes the server when the client disconnects mid-call (%s answers)', async (_, sse) => {
    const host = await hostWith(sse);
    const count = 50;
    try {
      await inParallel(count, 10, async (i) => {
        const disconnect = new AbortController();
        // JSON: no headers come before the answer; SSE: headers came, no event yet.
        const response = fetch(host.mounted.url, {
          method: 'POST',
          headers: MCP_HEADERS,
          body: callBody(i, 'wait_for_cancel', { tag: `gone-${i}` }),
          signal: disconnect.signal,
        }).catch(() => undefined);
        await host.calls.waitForStart(`gone-${i}`);
        disconnect.abort();
        await (await response)?.body?.cancel().catch(() => undefined);
      });
      await eventually(
        () => host.calls.running === 0 && openServerCount() === 0 && runningToolCallCount() === 0,
      );
      expect(host.calls.started.size).toBe(count);
      expect(host.calls.running).toBe(0);
      expect(openServerCount()).toBe(0);
      expect(runningToolCallCount()).toBe(0);
    } finally {
      await host.mounted.close();
    }
  });

  it('abandons the catalog call of a cancelled request: the service sees it hang up', async () => {
    const handle = createCatalogMcpHandler({
      sse: true,
      clientOptions: {
        apiKey: 'ck_test_lifecycle',
        baseUrl: service.baseUrl,
        mcpUrl: service.mcpUrl,
        // Far longer than the test: only the closing of the server can end these calls.
        timeoutMs: 600_000,
        maxRetries: 0,
      },
    });
    const mounted = await mountInHono(handle);
    const args = { query: 'outdoor', limit: null, category_ids: null, country: null };
    const count = 50;
    try {
      await inParallel(count, 10, async (i) => {
        const body = callBody(i, 'search_websites', args);
        const before = service.received;
        const response = await fetch(mounted.url, { method: 'POST', headers: MCP_HEADERS, body });
        await eventually(() => service.received > before);
        await response.body?.cancel();
      });
      await eventually(
        () => service.open === 0 && openServerCount() === 0 && runningToolCallCount() === 0,
      );
      expect(service.received).toBeGreaterThanOrEqual(count);
      expect(service.open).toBe(0);
      expect(openServerCount()).toBe(0);
      expect(runningToolCallCount()).toBe(0);
    } finally {
      await mounted.close();
    }
  });

  it.each([
    ['SSE', true],
    ['JSON', false],
  ])('closes it once the answer is out, read or not, and on every refusal (%s)', async (_, sse) => {
    const handle = createCatalogMcpHandler({ sse, clientOptions });
    const mounted = await mountInHono(handle);
    const post = (body: string, headers: Record<string, string> = MCP_HEADERS) =>
      fetch(mounted.url, { method: 'POST', headers, body });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    try {
      const read = await post(list);
      expect(await read.text()).toContain('search_catalog');
      // Never read, never cancelled: the answer is written, so the server is done.
      const unread = await post(list);
      expect(unread.status).toBe(200);
      await eventually(() => openServerCount() === 0 && runningToolCallCount() === 0);
      expect(openServerCount()).toBe(0);
      await unread.body?.cancel();
      const refusals = [
        await post(notification),
        await post('{"jsonrpc":'),
        await post(list, { 'content-type': 'application/json', accept: 'application/json' }),
        await post(list, { 'content-type': 'text/plain', accept: MCP_HEADERS.accept }),
        await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no/such/method' })),
      ];
      expect(refusals.map((response) => response.status)).toEqual([202, 400, 406, 415, 200]);
      await Promise.all(refusals.map((response) => response.body?.cancel()));
      await eventually(() => openServerCount() === 0 && runningToolCallCount() === 0);
      expect(openServerCount()).toBe(0);
      expect(runningToolCallCount()).toBe(0);
    } finally {
      await mounted.close();
    }
  });
});
