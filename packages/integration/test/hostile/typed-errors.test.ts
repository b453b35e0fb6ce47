import {
  CatalogClient,
  CatalogError,
  ConnectionError,
  ProtocolError,
  RateLimitError,
  RequestValidationError,
} from '@catalogkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureOf, type HostileServer, rpcIdOf, startHostileServer } from './hostile-server.js';

const KEY = 'ck_hostile_3f9a2c7e5b1d4a60';
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

let server: HostileServer;
beforeEach(async () => {
  server = await startHostileServer();
});
afterEach(() => server.close());

function client(maxRetries = 0) {
  return new CatalogClient({
    apiKey: KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries,
    timeoutMs: 30_000,
  });
}

function expectValidDate(date: Date | undefined) {
  expect(date).toBeInstanceOf(Date);
  expect(Number.isNaN(date?.getTime())).toBe(false);
  // Formatting an Invalid Date throws RangeError: this must not.
  expect(() => date?.toISOString()).not.toThrow();
}

describe('absurd Retry-After values are clamped to a week', () => {
  it.each([
    ['20 digits', '99999999999999999999'],
    ['400 digits (Infinity)', '9'.repeat(400)],
    ['a date past the year 200000', 'Sat, 01 Jan 275760 00:00:00 GMT'],
  ])('Retry-After of %s', async (_label, value) => {
    server.handle((_request, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': value });
      response.end('{"detail":"slow down"}');
    });
    const error = await failureOf(client(2).websites.search({ query: 'nike' }));
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    if (limited.resetsAt !== undefined) {
      expectValidDate(limited.resetsAt);
      expect(limited.retryAfterMs).toBeLessThanOrEqual(WEEK_MS);
    }
    // A wait that does not fit is surfaced at once, not slept through.
    expect(server.requests).toHaveLength(1);
  });

  it.each([1e300, '1e300', Number.MAX_VALUE])(
    'JSON-RPC -32000 with retry_after %s',
    async (retryAfter) => {
      server.handle((request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: rpcIdOf(request.body),
            error: { code: -32000, message: 'rate limited', data: { retry_after: retryAfter } },
          }),
        );
      });
      const error = await failureOf(client().catalog.search({ query: 'shoes' }));
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfterMs).toBe(WEEK_MS);
      expectValidDate((error as RateLimitError).resetsAt);
    },
  );
});

describe('broken answers are ProtocolErrors, not crashes or dropped connections', () => {
  it.each(['http://[::1', 'http://exa mple.com/%', 'https://:99999/'])(
    'a redirect to the invalid Location %s',
    async (location) => {
      server.handle((_request, response) => {
        response.writeHead(302, { location });
        response.end();
      });
      const error = await failureOf(client().websites.search({ query: 'nike' }));
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toContain('Location');
      expect(error).not.toBeInstanceOf(TypeError);
    },
  );

  it.each(['gzip', 'deflate', 'br'])(
    'a body that is not %s although Content-Encoding says so is not retried',
    async (encoding) => {
      server.handle((_request, response) => {
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': encoding,
        });
        response.end('{"websites": [] } but not compressed at all, sorry');
      });
      const error = await failureOf(client(3).websites.search({ query: 'nike' }));
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).not.toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toContain(encoding);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('invalid JSON is a ProtocolError whose cause does not carry the body', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"websites": [ {"secret-ish body text": tru');
    });
    const error = await failureOf(client().websites.search({ query: 'nike' }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(String((error as Error).cause ?? '')).not.toContain('secret-ish');
  });

  it('invalid JSON in an SSE event is a ProtocolError whose cause does not carry the event', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: {"jsonrpc":"2.0","secret-ish event text": nope\n\n');
    });
    const error = await failureOf(client().catalog.search({ query: 'shoes' }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(JSON.stringify(error)).not.toContain('secret-ish');
    expect(String((error as Error).cause ?? '')).not.toContain('secret-ish');
  });
});

describe('input that cannot be encoded is refused before sending, naming the field', () => {
  const lone = 'col_\uD800x';

  it('a collection id with a lone surrogate', async () => {
    const error = await failureOf(client().collections.update(lone, { name: 'Summer' }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { path: 'collection_id', message: expect.stringContaining('well-formed') },
    ]);
    expect(error).not.toBeInstanceOf(URIError);
    expect(server.requests).toHaveLength(0);
  });

  it('a lone surrogate deep in the update body', async () => {
    const error = await failureOf(
      client().collections.update('col_summer', {
        add_clauses: [
          { brand_ids: ['ok', '\uDC00'], website_ids: [], category_ids: [], product_ids: [] },
        ],
      }),
    );
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([
      'add_clauses.0.brand_ids.1',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('a lone surrogate in a website search query (URLSearchParams would swap it silently)', async () => {
    const error = await failureOf(client().websites.search({ query: 'nike\uD83D' }));
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual(['query']);
  });

  it('a lone surrogate in a catalog query', async () => {
    const error = await failureOf(client().catalog.search({ query: '\uDFFFshoes' }));
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([
      'catalog.query',
    ]);
  });

  it('a well-formed surrogate pair (an emoji) is sent as given', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"websites":[]}');
    });
    await client().websites.search({ query: 'shoes 👟' });
    const sent = new URL(server.requests[0]?.url ?? '', 'http://service.invalid');
    expect(sent.searchParams.get('query')).toBe('shoes 👟');
  });

  it('every failure above is a CatalogError', async () => {
    const error = await failureOf(client().collections.update(lone, {}));
    expect(CatalogError.is(error)).toBe(true);
  });
});
