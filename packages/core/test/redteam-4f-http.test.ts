import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CatalogClient,
  type CatalogClientOptions,
  CatalogError,
  ConfigurationError,
  MemoryCatalogStore,
  StoreUnavailableError,
  ValidationError,
} from '../src/index.js';
import { dropsSignal } from './support/fetch-wrappers.js';
import { TEST_KEY } from './support/fixtures.js';
import { refusedPort, sendJson, startTestServer, type TestServer } from './support/test-server.js';

/*
 * Red team of wave 4f's cuts to core's HTTP layer and client (f5f7cef). Each test fails on
 * that tree. F1 to F3 are regressions of the cut of the client options' run-time checks
 * (75cf93e): 66df504 refused each of these options at construction with a ConfigurationError
 * naming it. F4 is a regression of the cut of store-call.ts's storeName (another area's,
 * met through the rate-limit pause); 66df504 passes it. P1 to P8 are older than the cut
 * (66df504 fails them too); they break a guarantee of this area, and are marked so.
 *
 * Options are passed as JavaScript does (`as never`): the check that remains is the one
 * TypeScript cannot make.
 */

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const COLLECTION = {
  collection_id: 'col_1',
  name: 'n',
  description: '',
  clauses: [],
  created_at: '2025-05-01T09:30:00.000Z',
  updated_at: '2025-05-01T09:30:00.000Z',
};

/** A service that answers every search and every update. */
async function plainService(): Promise<TestServer> {
  server = await startTestServer((request, response) =>
    request.method === 'PATCH'
      ? sendJson(response, 200, COLLECTION)
      : sendJson(response, 200, { websites: [] }),
  );
  return server;
}

/** The client, or the ConfigurationError its options were refused with. */
function clientOrRefusal(options: Record<string, unknown>): CatalogClient | ConfigurationError {
  try {
    return new CatalogClient({ apiKey: TEST_KEY, ...options } as CatalogClientOptions);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
}

describe('red team 4f (http): options the cut stopped checking', () => {
  // F1. Severity: medium for JavaScript users (every call of the client fails; nothing is
  // sent, nothing leaks). `instrumentation: tracing && otel` is false when tracing is off.
  // runCall builds `instrumentation && observeCall(...)`, so the observer is `false`, and
  // `observer?.attemptStart(...)` is a call of undefined: a raw TypeError ("observer?.end is
  // not a function") from every search and update, instead of a ConfigurationError naming
  // the option at construction (66df504) or calls that go on unobserved.
  it('F1: a falsy instrumentation (false, 0, "") is refused naming it, or leaves calls working', async () => {
    const { origin } = await plainService();
    for (const instrumentation of [false, 0, '']) {
      const client = clientOrRefusal({ baseUrl: origin, instrumentation });
      if (client instanceof ConfigurationError) {
        expect(client.message).toMatch(/instrumentation/);
        continue;
      }
      await expect(client.websites.search({ query: 'shoes' })).resolves.toEqual({ websites: [] });
      await expect(client.collections.update('col_1', { name: 'n' })).resolves.toMatchObject({
        collection_id: 'col_1',
      });
    }
  });

  // F2. Severity: medium. A `fetch` option that is not a function (a wrapper's property that
  // is undefined is fine; an object, a string or `false` is not) is no longer refused. Every
  // call fails only when sent, as a ConnectionError "fetchImpl is not a function" with
  // `requestSent: true`; a change is marked `outcomeUnknown: true` ("may have been
  // applied") although the service received nothing, so a caller or the tools' guard treat a
  // change that never left as possibly applied; a search is retried with backoff for nothing.
  it('F2: a fetch option that is not a function is refused naming it; a change it never sent is not "may have been applied"', async () => {
    const service = await plainService();
    for (const fetch of ['fetch', {}, false]) {
      const client = clientOrRefusal({ baseUrl: service.origin, fetch, maxRetries: 0 });
      if (client instanceof ConfigurationError) {
        expect(client.message).toMatch(/fetch/);
        continue;
      }
      const error = await client.collections.update('col_1', { name: 'n' }).catch((e) => e);
      expect(service.requests).toHaveLength(0);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.outcomeUnknown).not.toBe(true);
      expect(error.message).toMatch(/option fetch/);
    }
  });

  // F3. Severity: low. `payment: {}` / `payment: true` / `{ pay: undefined }` (a payer that
  // failed to load) is accepted; the first 402 with a Payment challenge then ends the call
  // with a raw TypeError "this[#options].pay is not a function": not a CatalogError, and it
  // names no option. 66df504: ConfigurationError "option payment.pay must be a function".
  it('F3: a payment option without a pay function is refused naming payment.pay, never a TypeError at the first 402', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const challenge = `Payment id="ch_1", realm="shop", method="test", intent="charge", request="${b64({ amount: '25', currency: 'usd' })}", expires="2999-01-01T00:00:00Z"`;
    server = await startTestServer((_request, response) => {
      response.setHeader('www-authenticate', challenge);
      sendJson(response, 402, { detail: 'Payment required' });
    });
    for (const payment of [{}, true, { pay: undefined }]) {
      const client = clientOrRefusal({ baseUrl: server.origin, payment });
      if (client instanceof ConfigurationError) {
        expect(client.message).toMatch(/payment\.pay/);
        continue;
      }
      const error = await client.websites.search({ query: 'shoes' }).catch((e) => e);
      expect(error).toBeInstanceOf(CatalogError);
      expect(error.message).toMatch(/payment\.pay/);
    }
  });

  // F4 (out of this area: store/store-call.ts, cut in 4f; met through the rate-limit pause).
  // Severity: medium (a process exit). storeName() became `store.name?.trim()`, 66df504
  // checked `typeof store.name === 'string'`. A store whose `name` is not text (a JavaScript
  // store with a `name()` method, a number) now throws a TypeError from storeName: when the
  // pause read times out (5 s), inside callStore's timer callback, an uncaught exception
  // (the update itself then ends only at its own timeoutMs, as a TimeoutError); when the
  // store fails, the change ends with a raw TypeError instead of StoreUnavailableError.
  it('F4: a store whose name is not text still fails as StoreUnavailableError, never an uncaught TypeError', async () => {
    const { origin } = await plainService();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const failing = Object.assign(new MemoryCatalogStore(), {
        name: 42,
        get: async () => {
          throw new Error('connection refused');
        },
      });
      const quick = new CatalogClient({
        apiKey: TEST_KEY,
        baseUrl: origin,
        store: failing as never,
      });
      await expect(quick.collections.update('col_1', { name: 'n' })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      const hanging = Object.assign(new MemoryCatalogStore(), {
        name: 42,
        get: () => new Promise<never>(() => undefined),
      });
      const slow = new CatalogClient({
        apiKey: TEST_KEY,
        baseUrl: origin,
        store: hanging as never,
        timeoutMs: 7_000,
      });
      await expect(slow.collections.update('col_1', { name: 'n' })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  }, 15_000);
});

describe('red team 4f (http): older than the cut (66df504 behaves the same)', () => {
  // P1. Severity: medium. Node and browsers run a timer longer than 2^31-1 ms at once
  // (TimeoutOverflowWarning, "set to 1"); async.ts's unrefTimeout clamps for this, runCall's
  // call timer does not. `timeoutMs: 30 days` ("effectively no limit") makes every call a
  // TimeoutError "timed out after 2592000000 ms" within a millisecond, nothing answered.
  it('P1: a timeoutMs past 2^31-1 ms does not end every call at once', async () => {
    const { origin } = await plainService();
    const thirtyDays = 30 * 24 * 3_600_000;
    const client = clientOrRefusal({ baseUrl: origin, timeoutMs: thirtyDays });
    if (client instanceof ConfigurationError) {
      expect(client.message).toMatch(/timeoutMs/);
      return;
    }
    await expect(client.websites.search({ query: 'shoes' })).resolves.toEqual({ websites: [] });
    await expect(
      client.websites.search({ query: 'shoes' }, { timeoutMs: thirtyDays }),
    ).resolves.toEqual({ websites: [] });
  });

  // P2. Severity: medium (a caller's own credential in error text; a wrong outcome). A
  // request that fetch refuses to build (a caller header holding a line break, as a token
  // read with its newline from a file joined into one value does, or a character past
  // U+00FF) never leaves, yet transport.ts marks every fetch failure without a "not
  // connected" code as `requestSent: true`: the change is reported `outcomeUnknown: true`.
  // Fetch's message quotes the whole header value, and the redactor knows only the API key
  // and payment credentials, so the caller's secret is in the ConnectionError's message.
  it('P2: a header fetch refuses is not "may have been applied", and its value is not in the error', async () => {
    const service = await plainService();
    const secret = 'proxy_token_9f8e7d6c5b4a\r\nsecond-line';
    const client = clientOrRefusal({
      baseUrl: service.origin,
      headers: { 'proxy-authorization': secret },
      maxRetries: 0,
    });
    if (client instanceof ConfigurationError) {
      expect(client.message).toMatch(/headers/);
      expect(client.message).not.toContain('proxy_token_9f8e7d6c5b4a');
      return;
    }
    const error = await client.collections.update('col_1', { name: 'n' }).catch((e) => e);
    expect(service.requests).toHaveLength(0);
    expect(error.outcomeUnknown).not.toBe(true);
    expect(
      `${String(error)} ${error.stack} ${inspect(error, { showHidden: true, depth: 9 })}`,
    ).not.toContain('proxy_token_9f8e7d6c5b4a');
  });

  // P3. Severity: medium. A base URL with userinfo (`http://user:password@host`, a proxy's
  // basic-auth form) passes resolveUrl, though fetch refuses every request to it. The
  // password is then in `JSON.stringify(client)` and `inspect(client)` (the serialisations
  // documented as "the configuration without the key") and in every ConnectionError, whose
  // message quotes fetch's "...URL that includes credentials: http://user:password@...".
  it('P3: a base URL with userinfo is refused naming baseUrl, and its password is never shown', async () => {
    const { port } = await plainService();
    const password = 'hunter2-basic-auth-pw';
    const client = clientOrRefusal({ baseUrl: `http://user:${password}@127.0.0.1:${port}` });
    if (client instanceof ConfigurationError) {
      expect(client.message).toMatch(/baseUrl/);
      expect(client.message).not.toContain(password);
      return;
    }
    expect(JSON.stringify(client)).not.toContain(password);
    expect(inspect(client)).not.toContain(password);
    const error = await client.websites.search({ query: 'shoes' }).catch((e) => e);
    expect(`${String(error)} ${error.stack}`).not.toContain(password);
  });

  // P7. Severity: medium. Gateways and RPC providers put the key in the path
  // (`https://gateway.example/v2/<key>`). With the same key given as `apiKey`, the redactor
  // knows it, yet `toJSON()` / `inspect(client)` ("the configuration without the key") show
  // the base URL as given, and transport.ts builds the ConnectionError's message from
  // `${origin}${pathname}` of the first hop without the redactor ("the client built it").
  it('P7: the API key inside baseUrl/mcpUrl is not in toJSON, inspect or a ConnectionError', async () => {
    const port = await refusedPort();
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: `http://127.0.0.1:${port}/gateway/${TEST_KEY}`,
      mcpUrl: `http://127.0.0.1:${port}/v2/${TEST_KEY}`,
      maxRetries: 0,
    });
    expect(JSON.stringify(client)).not.toContain(TEST_KEY);
    expect(inspect(client)).not.toContain(TEST_KEY);
    const rest = await client.websites.search({ query: 'shoes' }).catch((e) => e);
    const mcp = await client.catalog.search({ query: 'shoes' }).catch((e) => e);
    for (const error of [rest, mcp]) {
      expect(error).toBeInstanceOf(CatalogError);
      expect(`${String(error)} ${error.stack}`).not.toContain(TEST_KEY);
    }
  });

  // P8. Severity: medium (a hang). call-scope.ts: "The timeout covers every attempt and
  // wait, so a call never outlives timeoutMs". The deadline is only the signal handed to
  // fetch; a `fetch` option that does not pass `init.signal` on (a wrapper that copies
  // method, headers and body) leaves a call to a silent service pending long past
  // timeoutMs (undici's own 300 s header timeout, or forever). The payment hooks are raced
  // against the deadline for this reason (SECURITY.md "No payment step outlives its call").
  it('P8: a fetch that drops the signal still ends the call at timeoutMs', async () => {
    server = await startTestServer(() => undefined);
    const client = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      fetch: dropsSignal,
      timeoutMs: 300,
    });
    const outcome = await Promise.race([
      client.websites.search({ query: 'shoes' }).then(
        () => 'answered',
        (error: Error) => error.name,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still pending after 3 s'), 3_000)),
    ]);
    expect(outcome).toBe('TimeoutError');
  });

  // P4. Severity: medium (process exit under Node's default --unhandled-rejections=throw).
  // "Telemetry never changes a call's outcome": observeCall's guard catches a report that
  // throws, but an observer method written `async` (TypeScript accepts it for a `void`
  // method) that rejects escapes it as an unhandled rejection. Payment hooks are awaited
  // and caught for the same reason (SECURITY.md, onReceipt F4); observers are not.
  it('P4: an async observer that rejects is not an unhandled rejection', async () => {
    const { origin } = await plainService();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const client = new CatalogClient({
        apiKey: TEST_KEY,
        baseUrl: origin,
        instrumentation: {
          startCall: () => ({
            attemptStart() {},
            response() {},
            attemptEnd() {},
            wait() {},
            async end() {
              throw new Error('span exporter down');
            },
          }),
        },
      });
      await expect(client.websites.search({ query: 'shoes' })).resolves.toEqual({ websites: [] });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  // P5. Severity: low. "Parse responses leniently": a 422 whose issue `msg` (or a `loc`
  // item) is an object with a non-callable `toString` makes describe() in
  // error-from-response.ts throw "Cannot convert object to primitive value": the caller
  // gets a raw TypeError instead of the ValidationError, from any service or proxy.
  it('P5: a 422 with an odd issue object is still a ValidationError', async () => {
    server = await startTestServer((_request, response) =>
      sendJson(response, 422, {
        detail: [{ loc: ['query', { toString: 1 }], msg: { toString: 1 }, type: 'value_error' }],
      }),
    );
    const client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin });
    await expect(client.websites.search({ query: 'shoes' })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  // P6. Severity: low (the key and payment credentials are still redacted). SECURITY.md R1:
  // "a message names the path of the first hop, which the client built, never a server-chosen
  // one". A same-origin redirect whose Location carries userinfo is followed (the origin
  // ignores userinfo); fetch then refuses the URL and its message, quoting the whole
  // Location, becomes the ConnectionError's reason.
  it('P6: a same-origin Location with userinfo is not named in the error (R1)', async () => {
    server = await startTestServer((request, response) => {
      if (!request.url.startsWith('/v1/websites')) return sendJson(response, 200, {});
      response.writeHead(302, {
        location: `http://u:p@127.0.0.1:${server?.port}/echo/server-chosen-text/x`,
      });
      response.end();
    });
    const client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, maxRetries: 0 });
    const error = await client.websites.search({ query: 'shoes' }).catch((e) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect(
      `${String(error)} ${error.stack} ${inspect(error, { showHidden: true, depth: 9 })}`,
    ).not.toContain('server-chosen-text');
  });
});
