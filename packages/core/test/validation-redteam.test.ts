/*
 * Red-team findings on request and answer validation (issue 28), each sent through a real
 * loopback server on both zod lines (`vitest run` and `-c vitest.zod3.config.ts`).
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient, RequestValidationError } from '../src/index.js';
import { hasLoneSurrogate } from '../src/validation/text.js';
import { rpcIdOf, TEST_KEY } from './support/fixtures.js';
import { type ReceivedRequest, startTestServer, type TestServer } from './support/test-server.js';

let mcp: TestServer;
let rest: TestServer;
let client: CatalogClient;

/** Raw JSON text, so that `__proto__` keys reach the client as the server wrote them. */
function sendText(response: ServerResponse, type: string, text: string): void {
  response.writeHead(200, { 'content-type': type, 'x-ucp-auth-tier': 'anonymous' });
  response.end(text);
}

function mcpJson(structured: string) {
  return (request: ReceivedRequest, response: ServerResponse) =>
    sendText(
      response,
      'application/json',
      `{"jsonrpc":"2.0","id":${JSON.stringify(rpcIdOf(request.body))},"result":{"content":[],"structuredContent":${structured}}}`,
    );
}

beforeEach(async () => {
  mcp = await startTestServer(mcpJson('{"products":[]}'));
  rest = await startTestServer((_request, response) =>
    sendText(response, 'application/json', '{"id":"c1","conversation_id":"c1"}'),
  );
  client = new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: rest.origin,
    mcpUrl: mcp.origin,
    maxRetries: 0,
  });
});
afterEach(async () => {
  await mcp.close();
  await rest.close();
});

async function refusal(promise: Promise<unknown>): Promise<RequestValidationError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

/** A value that reads `first` once and `later` on every read after. */
function flip<T>(first: T, later: T): { read: () => T; reads: () => number } {
  let count = 0;
  return { read: () => (count++ === 0 ? first : later), reads: () => count };
}

function sentBodies(): string[] {
  return [...mcp.requests, ...rest.requests].map((request) => request.body);
}

describe('F1: the request is read once; what was checked is what is sent', () => {
  it('a getter on a strict field is read once, and its checked value is sent', async () => {
    const query = flip('shoes', 'sh\uD800oes');
    await client.catalog.search({
      get query() {
        return query.read();
      },
    });
    expect(query.reads()).toBe(1);
    expect(JSON.parse(mcp.requests[0]?.body ?? '').params.arguments.catalog.query).toBe('shoes');
  });

  it('getters and Proxies under meta and the conversations.create body: one read', async () => {
    const name = flip('agent', 'ag\uDC00ent');
    await client.catalog.search(
      { query: 'shoes' },
      {
        meta: {
          profile: {
            get name() {
              return name.read();
            },
          },
        },
      },
    );
    let proxyReads = 0;
    const proxy = new Proxy(
      { name: 'ok' },
      {
        get: (target, key) =>
          key === 'name' && ++proxyReads > 1 ? '\uDFFF' : Reflect.get(target, key),
      },
    );
    await client.catalog.search({ query: 'shoes' }, { meta: { p: proxy } });
    const body = flip('ok', '\uD800');
    await client.conversations.create({
      a: {
        get b() {
          return body.read();
        },
      },
    } as never);
    expect([name.reads(), proxyReads, body.reads()]).toEqual([1, 1, 1]);
    for (const sent of sentBodies()) expect(hasLoneSurrogate(sent)).toBe(false);
    expect(sentBodies().join()).not.toMatch(/\\ud[89a-f]/i);
  });

  it('a toJSON that returns a lone surrogate is refused, naming the field; nothing sent', async () => {
    const error = await refusal(
      client.catalog.search({ query: 'shoes' }, { meta: { profile: { toJSON: () => 'x\uD83D' } } }),
    );
    expect(error.issues).toEqual([
      { path: 'meta.profile', message: 'must be well-formed Unicode (lone surrogate)' },
    ]);
    expect(sentBodies()).toEqual([]);
  });
});

describe('F2: a lone surrogate in a field name is refused, naming it', () => {
  it('in meta and in the conversations.create body', async () => {
    const inMeta = await refusal(client.catalog.search({ query: 'q' }, { meta: { 'k\uD800': 1 } }));
    expect(inMeta.issues).toEqual([
      { path: 'meta.k\\uD800', message: 'field name must be well-formed Unicode (lone surrogate)' },
    ]);
    expect(hasLoneSurrogate(inMeta.message)).toBe(false);
    const inBody = await refusal(client.conversations.create({ a: { '\uDC00b': 'x' } } as never));
    expect(inBody.issues.map((issue) => issue.path)).toEqual(['body.a.\\uDC00b']);
    expect(sentBodies()).toEqual([]);
  });
});

describe('F5: hostile shapes end in a RequestValidationError, in bounded time', () => {
  it('a cycle, 20k levels and a shared-reference DAG of 2^24 paths', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 20_000; level++) deep = { d: deep };
    // Each edge of the DAG counts its reads: a walk of every path would read 2^25 of them.
    let reads = 0;
    let dag: Record<string, unknown> = { leaf: 'x' };
    for (let level = 0; level < 24; level++) {
      const child = dag;
      const edge = () => {
        reads += 1;
        return child;
      };
      dag = {
        get a() {
          return edge();
        },
        get b() {
          return edge();
        },
      };
    }
    const started = performance.now();
    const errors = [
      await refusal(client.catalog.search({ query: 'q' }, { meta: cycle })),
      await refusal(client.catalog.search({ query: 'q' }, { meta: deep })),
      await refusal(client.conversations.create({ deep } as never)),
      await refusal(client.catalog.search({ query: 'q' }, { meta: dag })),
    ];
    // Bounded work, counted rather than timed (a busy machine took 12 s for the same work):
    // the walk stops at the 1,000,000-value limit, far short of every path.
    expect(reads).toBeLessThanOrEqual(1_000_001);
    // And it ends, well within a time no exhaustive walk could meet.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(errors.map((error) => error.issues[0]?.path)).toEqual([
      'meta.self.self…',
      'meta.d.d…',
      'body.deep.d…',
      // Each open map is bounded on its own, so the refusal names it.
      'meta',
    ]);
    expect(errors[0]?.issues[0]?.message).toMatch(/^nested too deeply or circular/);
    expect(errors[3]?.issues[0]?.message).toMatch(/^too large/);
    expect(sentBodies()).toEqual([]);
  });
});

describe('F9: values JSON cannot carry are refused, not changed on the way', () => {
  it('Map, NaN, Infinity, a hole, a function: each named', async () => {
    const error = await refusal(
      client.catalog.search(
        { query: 'q' },
        // biome-ignore lint/suspicious/noSparseArray: the hole is the point
        { meta: { m: new Map([[1, 2]]), n: Number.NaN, i: -Infinity, arr: [1, , 3], f: () => 1 } },
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'meta.m',
      'meta.n',
      'meta.i',
      'meta.arr.1',
      'meta.f',
    ]);
    const body = await refusal(client.conversations.create({ when: new Set() } as never));
    expect(body.issues).toEqual([{ path: 'body.when', message: 'cannot be sent as JSON (Set)' }]);
    expect(sentBodies()).toEqual([]);
  });

  it('still sends what JSON carries as is: a Date (toJSON), a class instance, -0', async () => {
    class Query {
      query = 'shoes';
    }
    await client.catalog.search(new Query(), { meta: { when: new Date(0), z: -0 } });
    const sent = JSON.parse(mcp.requests[0]?.body ?? '').params.arguments;
    expect(sent).toEqual({
      meta: { when: '1970-01-01T00:00:00.000Z', z: 0 },
      catalog: { query: 'shoes' },
    });
  });
});

describe('F3/F4: a __proto__ key in an answer never becomes a prototype or a member', () => {
  function expectPlain(value: object): void {
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
  }

  it('catalog answers as JSON and SSE, products missing (zod parses) or present', async () => {
    const evil = '"__proto__":{"messages":7,"pagination":{"cursor":{"evil":1}},"price":"free"}';
    mcp.handle(mcpJson(`{${evil}}`));
    const missing = await client.catalog.search({ query: 'q' });
    expectPlain(missing.result);
    expect(missing.result.messages).toBeUndefined();
    expect(missing.result.pagination).toBeUndefined();
    const product = `{"id":"p","title":"t","variants":[{"id":"v","title":"t","url":"https://x.example/v","price":{"amount":1,"currency":"USD"},${evil}}],${evil}}`;
    mcp.handle((request, response) =>
      sendText(
        response,
        'text/event-stream',
        `event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(rpcIdOf(request.body))},"result":{"content":[],"structuredContent":{"products":[${product}],${evil}}}}\n\n`,
      ),
    );
    const sse = await client.catalog.search({ query: 'q' });
    expectPlain(sse.result);
    const [first] = sse.result.products;
    expect(first).toBeDefined();
    expectPlain(first as object);
    const variant = first?.variants?.[0] as object;
    expectPlain(variant);
    expect((Object.assign({}, variant) as { price: unknown }).price).toEqual({
      amount: 1,
      currency: 'USD',
    });
  });

  it('REST answers, the key spelled with \\u escapes too', async () => {
    rest.handle((_request, response) =>
      sendText(
        response,
        'application/json',
        '{"websites":[{"id":"w","url":"https://x.example","\\u005f_proto__":{"id":7}}],"__proto__":{"websites":1}}',
      ),
    );
    const found = await client.websites.search({ query: 'q' });
    expectPlain(found);
    const [site] = found.websites;
    expectPlain(site as object);
    expect(site?.id).toBe('w');
  });
});

// Wave 4d red team (request path): zod's output became what is sent, and zod read the top
// level of an open map itself, skipping its `toJSON` and prototype. Now the whole request is
// copied as JSON sends it before zod checks it, at every level, top included.
describe('4d F1-F4: the top level of a request and of an open map is read as JSON reads it', () => {
  class Meta {
    agent = 'shop-bot';
    apiKey = 'sk_live_hidden';
    toJSON() {
      return { agent: this.agent };
    }
  }

  it('F1: a toJSON that hides fields hides them on the wire (meta, create body, a strict field)', async () => {
    await client.catalog.search({ query: 'shoes' }, { meta: new Meta() as never });
    await client.conversations.create(new Meta() as never);
    await client.catalog.search({
      query: 'internal',
      toJSON: () => ({ query: 'public' }),
    } as never);
    const sent = sentBodies().join('\n');
    expect(sent).not.toContain('sk_live_hidden');
    expect(sent).not.toContain('internal');
    expect(JSON.parse(mcp.requests[0]?.body ?? '').params.arguments.meta).toEqual({
      agent: 'shop-bot',
    });
    expect(JSON.parse(rest.requests[0]?.body ?? '')).toEqual({ agent: 'shop-bot' });
  });

  it('F2/F3: a Map, Date, URL or boxed string as the whole open map, or a toJSON giving a non-object, is refused naming it; nothing sent', async () => {
    const wholes: unknown[] = [
      new Map([['a', 1]]),
      new Date(0),
      new URL('https://example.com/'),
      new String('ab'),
      { toJSON: () => 'text' },
      { toJSON: () => [1, 2] },
    ];
    for (const meta of wholes) {
      const error = await refusal(client.catalog.search({ query: 'q' }, { meta: meta as never }));
      expect(error.issues[0]?.path).toBe('meta');
      const body = await refusal(client.conversations.create(meta as never));
      expect(body.issues[0]?.path).toBe('body');
    }
    expect(sentBodies()).toEqual([]);
  });

  it('F4: inherited members are not sent (own enumerable members only, as JSON)', async () => {
    await client.catalog.search(
      { query: 'q' },
      { meta: Object.create({ inherited: 'x' }) as Record<string, unknown> },
    );
    expect(JSON.parse(mcp.requests[0]?.body ?? '').params.arguments.meta).toEqual({});
  });
});

describe('4d F5/F6: sparse lists and many problems end early', () => {
  it('a list of 2^32-1 holes is refused after 100 problems, in bounded time; nothing sent', async () => {
    const started = performance.now();
    const holes: unknown[] = [];
    holes.length = 2 ** 32 - 1;
    const error = await refusal(client.catalog.search({ query: 'q' }, { meta: { holes } }));
    expect(error.issues).toHaveLength(101);
    expect(error.issues.at(-1)).toEqual({ path: 'meta', message: 'more than 100 problems' });
    const body = await refusal(client.conversations.create({ list: holes } as never));
    expect(body.issues.at(-1)?.path).toBe('body');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(sentBodies()).toEqual([]);
  });
});
