import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, CatalogClient, type RequestOptions, TimeoutError } from '../src/index.js';
import { rpcIdOf, TEST_KEY } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
let client: CatalogClient;

beforeEach(async () => {
  // Never answers: only the client's timeout or the caller's signal ends the call.
  server = await startTestServer(() => undefined);
  client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, mcpUrl: server.origin });
});
afterEach(() => server.close());

describe('timeouts', () => {
  it('a per-call timeoutMs ends a hanging call with TimeoutError', async () => {
    const error = await client.websites
      .search({ query: 'nike' }, { timeoutMs: 150 })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ code: 'timeout', timeoutMs: 150 });
    expect(error.message).toBe('websites.search timed out after 150 ms');
  });

  it('the client-wide timeoutMs applies to every method', async () => {
    const quick = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      mcpUrl: server.origin,
      timeoutMs: 100,
    });
    await expect(quick.collections.update('c', { name: 'n' })).rejects.toBeInstanceOf(TimeoutError);
    await expect(quick.catalog.search({ query: 'x' })).rejects.toBeInstanceOf(TimeoutError);
    await expect(quick.conversations.create()).rejects.toBeInstanceOf(TimeoutError);
  });

  it('covers an SSE stream that stalls after a notification', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress' })}\n\n`,
      );
    });
    await expect(client.catalog.search({ query: 'x' }, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it('covers a body that stalls after the headers', async () => {
    server.handle((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`{"jsonrpc":"2.0","id":${JSON.stringify(rpcIdOf(request.body))},`);
    });
    await expect(client.catalog.search({ query: 'x' }, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
  });

  it('covers a stalled body when the fetch option drops the signal (framed or not)', async () => {
    const dropsSignal: typeof fetch = (input, init) =>
      fetch(input, { method: init?.method, headers: init?.headers, body: init?.body });
    const deaf = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      fetch: dropsSignal,
    });
    for (const framing of [{}, { 'content-length': '100' }]) {
      server.handle((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', ...framing });
        response.write('{"websites":');
      });
      const outcome = await Promise.race([
        deaf.websites.search({ query: 'x' }, { timeoutMs: 200 }).catch((error) => error),
        new Promise((resolve) => setTimeout(() => resolve('still pending'), 2_000)),
      ]);
      expect(outcome).toBeInstanceOf(TimeoutError);
    }
  });
});

/** Every method, called with the given per-call options (its last argument). */
const everyMethod: [string, (options: RequestOptions) => Promise<unknown>][] = [
  ['websites.search', (options) => client.websites.search({ query: 'nike' }, options)],
  ['collections.update', (options) => client.collections.update('c', { name: 'n' }, options)],
  ['catalog.search', (options) => client.catalog.search({ query: 'x' }, options)],
  ['conversations.create', (options) => client.conversations.create({}, options)],
];

describe.each(everyMethod)('%s takes per-call options', (_name, call) => {
  it('timeoutMs', async () => {
    await expect(call({ timeoutMs: 100 })).rejects.toMatchObject({
      code: 'timeout',
      timeoutMs: 100,
    });
  });

  it('signal: an aborted signal sends nothing', async () => {
    await expect(call({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('AbortSignal', () => {
  it('aborting during the request rejects with AbortError carrying the reason', async () => {
    const controller = new AbortController();
    const pending = client.websites.search({ query: 'nike' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shopper left')), 50);
    const error = await pending.catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.cause).toEqual(new Error('shopper left'));
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await client.catalog
      .search({ query: 'x' }, { signal: AbortSignal.abort() })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });

  it('aborting during a retry wait ends the wait at once', async () => {
    server.handle((_request, response) => {
      response.writeHead(503, { 'retry-after': '10' });
      response.end();
    });
    const controller = new AbortController();
    const patient = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      maxRetryDelayMs: 60_000,
    });
    const started = Date.now();
    const pending = patient.websites.search({ query: 'nike' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });
});
