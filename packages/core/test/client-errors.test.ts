import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  CatalogClient,
  CatalogError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
let client: CatalogClient;

beforeEach(async () => {
  server = await startTestServer();
  client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, maxRetries: 0 });
});
afterEach(() => server.close());

function failure(): Promise<unknown> {
  return client.websites.search({ query: 'nike' }).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('HTTP error statuses', () => {
  it('401 with a "missing" detail is an AuthenticationError with reason missing', async () => {
    server.handle((_q, r) => sendJson(r, 401, { detail: 'API key is missing' }));
    const error = await failure();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      reason: 'missing',
      detail: 'API key is missing',
      code: 'authentication',
    });
  });

  it('401 with an "invalid" detail has reason invalid', async () => {
    server.handle((_q, r) => sendJson(r, 401, { detail: 'Invalid API key' }));
    expect(await failure()).toMatchObject({ reason: 'invalid' });
  });

  it('401 with an unclear detail is "invalid" because a key was sent', async () => {
    server.handle((_q, r) => sendJson(r, 401, { detail: 'Unauthorized' }));
    expect(await failure()).toMatchObject({ reason: 'invalid' });
  });

  it('402 without WWW-Authenticate means exhausted credits', async () => {
    server.handle((_q, r) =>
      sendJson(r, 402, { detail: 'Free credits used up: add a payment method' }),
    );
    const error = await failure();
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error).toMatchObject({ reason: 'credits_exhausted', challenges: [], status: 402 });
  });

  it('402 with WWW-Authenticate is a payment challenge with parsed challenges', async () => {
    const header =
      'Payment id="ch_1", realm="catalog", method="tempo", intent="charge", request="eyJhIjoxfQ", expires="2030-01-01T00:00:00Z", L402 token="mac,aroon", invoice="lnbc1"';
    server.handle((_q, r) =>
      sendJson(r, 402, { detail: 'Payment required' }, { 'www-authenticate': header }),
    );
    const error = (await failure()) as PaymentRequiredError;
    expect(error.reason).toBe('payment_challenge');
    expect(error.challenges).toEqual([
      {
        scheme: 'Payment',
        params: {
          id: 'ch_1',
          realm: 'catalog',
          method: 'tempo',
          intent: 'charge',
          request: 'eyJhIjoxfQ',
          expires: '2030-01-01T00:00:00Z',
        },
      },
      { scheme: 'L402', params: { token: 'mac,aroon', invoice: 'lnbc1' } },
    ]);
    expect(error.headers['www-authenticate']).toBe(header);
  });

  it('404 is a NotFoundError', async () => {
    server.handle((_q, r) => sendJson(r, 404, { detail: 'Not found' }));
    expect(await failure()).toBeInstanceOf(NotFoundError);
  });

  it('422 exposes the { loc, msg, type } items and names them in the message', async () => {
    const detail = [
      {
        loc: ['query', 'category_ids', 0],
        msg: 'unknown category: moon-boots',
        type: 'value_error',
        ctx: { x: 1 },
      },
    ];
    server.handle((_q, r) => sendJson(r, 422, { detail }));
    const error = (await failure()) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual(detail);
    expect(error.message).toContain('query.category_ids.0: unknown category: moon-boots');
  });

  it('429 with delta-seconds Retry-After gives retryAfterMs and resetsAt', async () => {
    server.handle((_q, r) => sendJson(r, 429, { detail: 'slow down' }, { 'retry-after': '7200' }));
    const before = Date.now();
    const error = (await failure()) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(7_200_000);
    expect(error.resetsAt?.getTime()).toBeGreaterThanOrEqual(before + 7_200_000);
    expect(error.resetsAt?.getTime()).toBeLessThanOrEqual(Date.now() + 7_200_000);
  });

  it('429 with an HTTP-date Retry-After gives that moment', async () => {
    const resetsAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    server.handle((_q, r) => sendJson(r, 429, {}, { 'retry-after': resetsAt.toUTCString() }));
    const error = (await failure()) as RateLimitError;
    expect(error.resetsAt?.getTime()).toBe(resetsAt.getTime());
    expect(error.retryAfterMs).toBeGreaterThan(3_590_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3_601_000);
  });

  it('500 is a ServerError with its detail', async () => {
    server.handle((_q, r) => sendJson(r, 500, { detail: 'boom' }));
    const error = await failure();
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, detail: 'boom' });
  });

  it('an unlisted 4xx is a plain ApiError', async () => {
    server.handle((_q, r) => sendJson(r, 409, { detail: 'conflict' }));
    const error = await failure();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 409, code: 'api_error' });
  });

  it('every error is a CatalogError whose message names the operation and status', async () => {
    server.handle((_q, r) => sendJson(r, 500, { detail: 'boom' }));
    const error = (await failure()) as CatalogError;
    expect(error).toBeInstanceOf(CatalogError);
    expect(error.message).toBe('websites.search failed with HTTP 500: boom');
  });
});

describe('answers that break the contract', () => {
  it('an HTML page with status 200 (a proxy) is a ProtocolError', async () => {
    server.handle((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/html' });
      r.end('<html><body>Please log in to the hotel wifi</body></html>');
    });
    const error = await failure();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('text/html');
  });

  it('an HTML 502 from a proxy is still a ServerError (so it is retried), without detail', async () => {
    server.handle((_q, r) => {
      r.writeHead(502, { 'content-type': 'text/html' });
      r.end('<html>Bad gateway</html>');
    });
    const error = await failure();
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, detail: undefined });
  });

  it('truncated JSON is a ProtocolError', async () => {
    server.handle((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.end('{"websites": [{"id": "w1", "url": "https://a');
    });
    const error = await failure();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('not valid JSON');
  });
});
