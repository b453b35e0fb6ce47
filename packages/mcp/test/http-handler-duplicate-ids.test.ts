import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { openServerCount } from '../src/request-scope.js';
import { prepareTools, runningToolCallCount, serverFor } from '../src/server.js';
import { eventually, hangingTool, MCP_HEADERS } from './support/hanging-tool.js';
import { mountInHono } from './support/http-host.js';
import { type StalledService, startStalledService } from './support/stalled-service.js';

/*
 * Two requests of one batch sharing an id (red team, issue 23). The SDK keys a running
 * request's abort controller and its place in the answer by id: the second takes both, so
 * closing the server no longer aborts the first call, and the response ends after the first
 * answer. Before the fix, [tools/call id 1, ping id 1] answered the ping and left the call
 * running against the service, with the key, for good; 3,000 such requests grew the heap
 * from 17 to 127 MB while every scope counted as closed.
 */

let service: StalledService;

beforeAll(async () => {
  service = await startStalledService();
});

afterAll(async () => {
  await service?.close();
});

const request = (id: unknown, method: string, params?: object) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

const toolCall = (id: unknown, name: string, args: object) =>
  request(id, 'tools/call', { name, arguments: args });

// Never reached: these tests call no catalog tool.
const offline = {
  apiKey: 'ck_test_duplicate_ids',
  baseUrl: 'http://127.0.0.1:9/api',
  mcpUrl: 'http://127.0.0.1:9/ucp',
};

const searchArgs = { query: 'outdoor', limit: null, category_ids: null, country: null };

interface Sent {
  status: number;
  text: string;
}

async function post(url: URL, body: string): Promise<Sent> {
  // Bounded: before the fix, a batch of two hanging calls under one id was never answered.
  // Given up on, it is a status 0 (and the client hangs up, as a real one would).
  const signal = AbortSignal.timeout(3_000);
  try {
    const response = await fetch(url, { method: 'POST', headers: MCP_HEADERS, body, signal });
    // Read to the end: the orphaned calls outlive even a fully read answer.
    return { status: response.status, text: await response.text() };
  } catch {
    return { status: 0, text: '' };
  }
}

function expectRefused(sent: Sent): void {
  expect(sent.status).toBe(400);
  expect(JSON.parse(sent.text)).toEqual({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: two messages of the batch share an id.' },
  });
}

describe('a batch whose requests share an id', () => {
  it.each([
    ['JSON', false],
    ['SSE', true],
  ])('is refused, leaving no tool call running (%s answers)', async (_, sse) => {
    const { tool, calls } = hangingTool();
    const clientOptions = {
      apiKey: 'ck_test_duplicate_ids',
      baseUrl: service.baseUrl,
      mcpUrl: service.mcpUrl,
      // Far longer than the test: only the closing of the request can end these calls.
      timeoutMs: 600_000,
      maxRetries: 0,
    };
    const mounted = await mountInHono(
      createCatalogMcpHandler({ sse, clientOptions, tools: [tool] }),
    );
    const servicesBefore = service.received;
    const bodies = [
      // The red team's batches: a tool call, then a ping that takes its id.
      [toolCall(1, 'wait_for_cancel', { tag: 'a' }), request(1, 'ping')],
      [toolCall(7, 'search_websites', searchArgs), request(7, 'ping')],
      [toolCall(1, 'wait_for_cancel', { tag: 'b' }), toolCall(1, 'wait_for_cancel', { tag: 'c' })],
      Array.from({ length: 10 }, (_, i) => toolCall('same', 'wait_for_cancel', { tag: `d${i}` })),
      [request('x', 'tools/list'), toolCall(2, 'search_websites', searchArgs), request(2, 'ping')],
    ];
    try {
      const sent = [];
      for (const body of bodies) sent.push(await post(mounted.url, JSON.stringify(body)));
      await eventually(
        () => calls.running === 0 && runningToolCallCount() === 0 && service.open === 0,
        2_000,
      );
      expect(calls.running).toBe(0);
      expect(runningToolCallCount()).toBe(0);
      expect(service.open).toBe(0);
      expect(openServerCount()).toBe(0);
      for (const one of sent) expectRefused(one);
      // Refused before any server exists: nothing ran, nothing reached the service.
      expect(calls.started.size).toBe(0);
      expect(service.received).toBe(servicesBefore);
    } finally {
      await mounted.close();
    }
  });

  it('compares ids as the SDK does: 0, -0 and 0.0 are one id; "1" and 1 are two', async () => {
    const mounted = await mountInHono(createCatalogMcpHandler({ clientOptions: offline }));
    try {
      // Written by hand: JSON.stringify would print -0 and 0.0 as 0. Before the fix the SDK
      // answered this batch with one object, not an array, dropping two answers.
      const search = (id: string) =>
        `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{}}`;
      expectRefused(await post(mounted.url, `[${search('0')},${search('-0')},${search('0.0')}]`));
      expectRefused(await post(mounted.url, `[${search('1')},${search('1e0')}]`));
      expectRefused(await post(mounted.url, `[${search('"a"')},${search('"\\u0061"')}]`));

      const distinct = [request('1', 'ping'), request(1, 'ping'), request(2, 'ping')];
      const answered = await post(mounted.url, JSON.stringify(distinct));
      expect(answered.status).toBe(200);
      const answers = JSON.parse(answered.text) as { id: unknown }[];
      expect(answers).toHaveLength(3);
      expect(answers.map((answer) => answer.id)).toEqual(expect.arrayContaining([1, '1', 2]));
      // Notifications carry no id: any number of them may sit beside a request.
      const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
      const withNotes = [notification, request(3, 'ping'), notification];
      expect((await post(mounted.url, JSON.stringify(withNotes))).status).toBe(200);
    } finally {
      await mounted.close();
    }
  });
});

describe('closing a request', () => {
  it('aborts every tool call of its server, even two the SDK tracks under one id', async () => {
    // Below the HTTP handler's refusal: should the SDK lose a call's abort controller some
    // other way, the request's own signal still stops the call.
    const { tool, calls } = hangingTool();
    const tools = prepareTools({ clientOptions: offline, tools: [tool] });
    // Relative: this file's other tests, run on code without the fix, leave calls running.
    const before = runningToolCallCount();
    const closed = new AbortController();
    const server = serverFor(tools, closed.signal);
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.start();
    for (const tag of ['first', 'second']) {
      const call: JSONRPCMessage = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'wait_for_cancel', arguments: { tag } },
      };
      await client.send(call);
    }
    await calls.waitForStart('first');
    await calls.waitForStart('second');
    expect(calls.running).toBe(2);
    expect(runningToolCallCount()).toBe(before + 2);
    // What the handler does when the request is done with.
    closed.abort();
    await server.close();
    await eventually(() => calls.running === 0, 2_000);
    expect(calls.running).toBe(0);
    expect(runningToolCallCount()).toBe(before);
  });
});
