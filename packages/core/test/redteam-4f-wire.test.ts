import type { ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ResponseTooLargeError } from '../src/errors/index.js';
import { CatalogClient, RequestValidationError } from '../src/index.js';
import { schemaCheck } from '../src/validation/schema-check.js';
import { rpcIdOf, TEST_KEY, toolsCallAnswer } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

function clientWith(options: ConstructorParameters<typeof CatalogClient>[0] = {}) {
  return new CatalogClient({
    apiKey: TEST_KEY,
    mcpUrl: `${server.origin}/ucp`,
    maxRetries: 0,
    ...options,
  });
}

function openSse(response: ServerResponse) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'x-ucp-auth-tier': 'token' });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('red team 4f wire: SSE reader', () => {
  it('takes a complete answer event at once when the same write also starts the next event', async () => {
    server.handle((request, response) => {
      openSse(response);
      // The answer is complete (blank line), then a keep-alive comment starts; then silence.
      response.write(
        `data: ${JSON.stringify(toolsCallAnswer(rpcIdOf(request.body)))}\n\n: keep-alive`,
      );
    });
    const started = Date.now();
    const outcome = await clientWith({ timeoutMs: 3_000 })
      .catalog.search({ query: 'x' })
      .then(
        ({ result }) => result.products.length,
        (error: unknown) => error,
      );
    expect(outcome).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a data line longer than maxSseLineBytes is a ResponseTooLargeError even when it ends in the same chunk', async () => {
    server.handle((request, response) => {
      openSse(response);
      const answer = toolsCallAnswer(rpcIdOf(request.body)) as Record<string, unknown>;
      const padded = { ...answer, padding: 'p'.repeat(20_000) };
      response.end(`data: ${JSON.stringify(padded)}\n\n`);
    });
    const error = await clientWith({ maxSseLineBytes: 4_096 })
      .catalog.search({ query: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe('maxSseLineBytes');
  });

  it('held: a multi-byte character split across chunks, CR line ends and a BOM in its own chunk', async () => {
    server.handle(async (request, response) => {
      openSse(response);
      const answer = toolsCallAnswer(rpcIdOf(request.body)) as {
        result: { structuredContent: { products: { title: string }[] } };
      };
      const product = answer.result.structuredContent.products[0];
      if (product) product.title = 'Küchen€😀';
      const bytes = Buffer.from(`: c\r\rdata: ${JSON.stringify(answer)}\r\r`);
      response.write(Buffer.from([0xef, 0xbb]));
      await pause(20);
      response.write(Buffer.from([0xbf]));
      await pause(20);
      const cut = bytes.indexOf(Buffer.from('😀')) + 2;
      response.write(bytes.subarray(0, cut));
      await pause(20);
      response.write(bytes.subarray(cut));
    });
    const { result } = await clientWith({ timeoutMs: 3_000 }).catalog.search({ query: 'x' });
    expect(result.products[0]?.title).toBe('Küchen€😀');
  });

  it('held: an open line dripped past maxSseLineBytes (in bytes) fails without reading on', async () => {
    let sent = 0;
    server.handle(async (_request, response) => {
      openSse(response);
      response.write('data: ');
      for (let index = 0; index < 400 && !response.destroyed; index++) {
        sent += 3 * 100;
        if (!response.write('€'.repeat(100))) await pause(1);
        await pause(1);
      }
      response.end();
    });
    const error = await clientWith({ maxSseLineBytes: 3_000, timeoutMs: 5_000 })
      .catalog.search({ query: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(sent).toBeLessThan(120_000);
  });
});

/** The check's promise: it passes a value only when zod succeeds and returns an equal value. */
function agreesWithZod(schema: z.ZodType, value: unknown): boolean {
  const check = schemaCheck(schema);
  if (check === undefined || !check(value)) return true;
  const parsed = schema.safeParse(value);
  return parsed.success && isDeepStrictEqual(parsed.data, value);
}

describe('red team 4f wire: the answer check against zod', () => {
  it('a union passes only what its first succeeding option returns unchanged (zod takes the first success)', () => {
    const stripFirst = z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string() })]);
    expect(agreesWithZod(stripFirst, { a: 'x', b: 1 })).toBe(true);
    const defaultFirst = z.union([
      z.object({ a: z.string().default('d') }),
      z.looseObject({ b: z.number() }),
    ]);
    expect(agreesWithZod(defaultFirst, { b: 1 })).toBe(true);
  });

  it('an optional around a default is filled in by zod: the check must not pass a missing field', () => {
    const schema = z.object({ a: z.string().default('q').optional() });
    expect(agreesWithZod(schema, {})).toBe(true);
  });

  it('a recursive (getter) schema is left to zod, not a stack overflow', () => {
    const Node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    expect(() => schemaCheck(Node)).not.toThrow();
  });
});

describe('red team 4f wire: the request copy', () => {
  it('a __proto__ member of an open map is sent as JSON.parse made it or refused by name, never dropped silently', async () => {
    server.handle((request, response) =>
      sendJson(response, 200, toolsCallAnswer(rpcIdOf(request.body)), {
        'x-ucp-auth-tier': 'token',
      }),
    );
    const meta = JSON.parse('{"ucp-agent":{"profile":"https://a.example/p"},"__proto__":{"k":1}}');
    const error = await clientWith()
      .catalog.search({ query: 'x' }, { meta })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    if (error !== undefined) {
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(JSON.stringify((error as RequestValidationError).issues)).toContain('meta.__proto__');
      return;
    }
    const sent = server.requests[0]?.body ?? '';
    // The copy keeps it as a data member; zod's output, which is what is sent, drops it.
    expect(sent).toContain('"__proto__"');
  });
});
