import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CatalogClient,
  type CatalogClientOptions,
  ConnectionError,
  RateLimitError,
  ServerError,
} from '../src/index.js';
import { rpcIdOf, TEST_KEY, toolsCallAnswer } from './support/fixtures.js';
import {
  type Handler,
  refusedPort,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

let servers: TestServer[] = [];
let warnings: string[] = [];

beforeEach(() => {
  servers = [];
  warnings = [];
});
afterEach(() => Promise.all(servers.map((server) => server.close())));

async function serve(handler: Handler, port = 0): Promise<TestServer> {
  const server = await startTestServer(handler, port);
  servers.push(server);
  return server;
}

function clientFor(origin: string, options: CatalogClientOptions = {}) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: origin,
    mcpUrl: origin,
    logger: { warn: (message) => warnings.push(message) },
    ...options,
  });
}

/**
 * A logger that starts the server on `port` at the first retry notice, so the next attempt
 * connects: a real refused connection followed by a real answer.
 */
function startServerOnFirstRetry(handler: Handler, port: number) {
  // serve() registers the server, so afterEach closes it.
  let started = false;
  return {
    warn: () => {
      if (started) return;
      started = true;
      void serve(handler, port);
    },
  };
}

/** Answers with `statuses` in turn (Retry-After 0 so tests do not sleep), then 200 `body`. */
function sequence(statuses: number[], body: unknown): Handler {
  let call = 0;
  return (_request, response) => {
    const status = statuses[call++];
    if (status === undefined) return sendJson(response, 200, body);
    sendJson(response, status, { detail: `status ${status}` }, { 'retry-after': '0' });
  };
}

/** A collection endpoint that applies every PATCH it reads, then answers with `after`. */
function collectionServer(after: (applied: number, response: Parameters<Handler>[1]) => void) {
  const state = { applied: 0 };
  const handler: Handler = (request, response) => {
    if (request.method === 'PATCH') state.applied += 1;
    after(state.applied, response);
  };
  return { state, handler };
}

const websites = { websites: [] };

describe('safe operations are retried', () => {
  it('website search retries 503 and 502 and then succeeds, logging each retry', async () => {
    const server = await serve(sequence([503, 502], websites));
    const answer = await clientFor(server.origin).websites.search({ query: 'nike' });
    expect(answer).toEqual(websites);
    expect(server.requests).toHaveLength(3);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('websites.search: retrying after HTTP 503');
  });

  it('408 and 429 are retried', async () => {
    const server = await serve(sequence([408, 429], websites));
    await clientFor(server.origin).websites.search({ query: 'nike' });
    expect(server.requests).toHaveLength(3);
  });

  it('stops after maxRetries and throws the last error', async () => {
    const server = await serve(sequence([500, 500, 500, 500], websites));
    const error = await clientFor(server.origin, { maxRetries: 2 })
      .websites.search({ query: 'nike' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 4xx other than 408 and 429', async () => {
    const server = await serve(sequence([404], websites));
    await expect(clientFor(server.origin).websites.search({ query: 'nike' })).rejects.toMatchObject(
      { status: 404 },
    );
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After before retrying', async () => {
    let call = 0;
    const server = await serve((_request, response) =>
      call++ === 0
        ? sendJson(response, 429, {}, { 'retry-after': '1' })
        : sendJson(response, 200, websites),
    );
    const started = Date.now();
    await clientFor(server.origin).websites.search({ query: 'nike' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('a Retry-After of hours surfaces as RateLimitError at once instead of sleeping', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 429, {}, { 'retry-after': '7200' }),
    );
    const started = Date.now();
    const error = await clientFor(server.origin)
      .websites.search({ query: 'nike' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(7_200_000);
    expect(server.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('caps the total wait at maxRetryDelayMs', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 429, {}, { 'retry-after': '1' }),
    );
    const client = clientFor(server.origin, { maxRetries: 5, maxRetryDelayMs: 1_500 });
    await expect(client.websites.search({ query: 'nike' })).rejects.toBeInstanceOf(RateLimitError);
    // One 1 s wait fits in 1.5 s; a second would not.
    expect(server.requests).toHaveLength(2);
  });

  it('does not wait beyond the call timeout', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 429, {}, { 'retry-after': '5' }),
    );
    const started = Date.now();
    await expect(
      clientFor(server.origin).websites.search({ query: 'nike' }, { timeoutMs: 1_000 }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps its deadline on the clock timers use: a wall clock stepping forward mid-call cuts no retry', async () => {
    // Only Date is faked (and keeps running): timers and performance.now() stay real.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      let call = 0;
      const server = await serve((_request, response) => {
        if (call++ > 0) return sendJson(response, 200, websites);
        vi.setSystemTime(Date.now() + 2 * 3_600_000);
        sendJson(response, 503, { detail: 'busy' }, { 'retry-after': '0' });
      });
      await clientFor(server.origin).websites.search({ query: 'nike' }, { timeoutMs: 10_000 });
      expect(server.requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('website search retries a connection reset after the request was read', async () => {
    let call = 0;
    const server = await serve((_request, response) =>
      call++ === 0 ? response.socket?.destroy() : sendJson(response, 200, websites),
    );
    await clientFor(server.origin).websites.search({ query: 'nike' });
    expect(server.requests).toHaveLength(2);
  });

  it('website search retries a refused connection once the server is up', async () => {
    const port = await refusedPort();
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      // Spare attempts in case a zero jitter retries before the server has bound the port.
      maxRetries: 4,
      logger: startServerOnFirstRetry(
        (_request, response) => sendJson(response, 200, websites),
        port,
      ),
    });
    await expect(client.websites.search({ query: 'nike' })).resolves.toEqual(websites);
  });

  it('catalog search retries 503 and a -32000 rate-limit error', async () => {
    let call = 0;
    const server = await serve((request, response) => {
      const id = rpcIdOf(request.body);
      call += 1;
      if (call === 1) return sendJson(response, 503, {}, { 'retry-after': '0' });
      if (call === 2) {
        return sendJson(response, 200, {
          jsonrpc: '2.0',
          id,
          error: { code: -32000, message: 'slow', data: { retry_after: 0 } },
        });
      }
      sendJson(response, 200, toolsCallAnswer(id), { 'x-ucp-auth-tier': 'token' });
    });
    const { tier } = await clientFor(server.origin).catalog.search({ query: 'x' });
    expect(tier).toBe('token');
    expect(server.requests).toHaveLength(3);
  });
});

describe('collection update is applied exactly once', () => {
  it('a connection drop after the server applied it is not retried', async () => {
    const { state, handler } = collectionServer((_applied, response) => response.socket?.destroy());
    const server = await serve(handler);
    const error = await clientFor(server.origin, { maxRetries: 3 })
      .collections.update('col_summer', {
        add_clauses: [{ brand_ids: ['b'], website_ids: [], category_ids: [], product_ids: [] }],
      })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.requestSent).toBe(true);
    expect(state.applied).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('a 5xx is not retried (it may have been applied)', async () => {
    const { state, handler } = collectionServer((_applied, response) =>
      sendJson(response, 503, { detail: 'down' }, { 'retry-after': '0' }),
    );
    const server = await serve(handler);
    await expect(
      clientFor(server.origin).collections.update('c', { name: 'n' }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(state.applied).toBe(1);
  });

  it('a 408 is not retried', async () => {
    const server = await serve(sequence([408], { collection_id: 'c' }));
    await expect(
      clientFor(server.origin).collections.update('c', { name: 'n' }),
    ).rejects.toMatchObject({ status: 408 });
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 (refused before processing) is retried', async () => {
    const server = await serve(sequence([429], { collection_id: 'c', name: 'n' }));
    const collection = await clientFor(server.origin).collections.update('c', { name: 'n' });
    expect(collection.name).toBe('n');
    expect(server.requests).toHaveLength(2);
  });

  it('a refused connection (provably not sent) is retried and applied once', async () => {
    const port = await refusedPort();
    const { state, handler } = collectionServer((_applied, response) =>
      sendJson(response, 200, { collection_id: 'c' }),
    );
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      // Spare attempts in case a zero jitter retries before the server has bound the port.
      maxRetries: 4,
      logger: startServerOnFirstRetry(handler, port),
    });
    await expect(client.collections.update('c', { name: 'n' })).resolves.toEqual({
      collection_id: 'c',
    });
    expect(state.applied).toBe(1);
  });

  it('conversation create follows the same rule', async () => {
    const server = await serve((_request, response) => response.socket?.destroy());
    await expect(
      clientFor(server.origin, { maxRetries: 3 }).conversations.create(),
    ).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });
});
