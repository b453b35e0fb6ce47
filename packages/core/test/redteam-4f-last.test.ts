import { inspect, isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ChatSession } from '../src/conversations/index.js';
import { CatalogClient, ConfigurationError } from '../src/index.js';
import type { CatalogStore } from '../src/store/catalog-store.js';
import { MemoryCatalogStore } from '../src/store/memory-store.js';
import { createCatalogToolList } from '../src/tools/index.js';
import { schemaCheck } from '../src/validation/schema-check.js';
import { catalogPayload, rpcIdOf } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

/** The check's promise: it passes a value only when zod succeeds and returns an equal value. */
function agreesWithZod(schema: z.ZodType, value: unknown): boolean {
  const check = schemaCheck(schema);
  if (check === undefined || !check(value)) return true;
  const parsed = schema.safeParse(value);
  return parsed.success && isDeepStrictEqual(parsed.data, value);
}

describe('red team 4f (last): the answer check against zod, found by generated schemas', () => {
  // L1 (low, latent: no schema of core has this shape today). `fills` looks through wrappers
  // only: a union with a default option under optional is compiled, so the check passes a
  // missing field that zod fills with the default; the answer lacks a field its type promises.
  it('L1: an optional around a union that has a default option is filled in by zod', () => {
    const field = z.union([z.string().default('x'), z.number()]).optional();
    expect(field.parse(undefined)).toBe('x');
    expect(agreesWithZod(field, undefined)).toBe(true);
    expect(agreesWithZod(z.object({ a: field }), {})).toBe(true);
  });

  // L2 (low, latent: core wraps every z.unknown() in optional). A required z.unknown() (or a
  // nullable one) compiles to `true`, so a missing key passes the check, though zod 4 refuses
  // it ("expected nonoptional"): an answer zod rejects is returned as valid.
  it('L2: a missing required z.unknown() member is refused by zod, so the check must not pass it', () => {
    const schema = z.object({ a: z.unknown(), b: z.string() });
    expect(schema.safeParse({ b: 'x' }).success).toBe(false);
    expect(agreesWithZod(schema, { b: 'x' })).toBe(true);
    expect(agreesWithZod(z.object({ a: z.unknown().nullable() }), {})).toBe(true);
    // The same for a literal that allows undefined: `includes(undefined)` passes a missing key.
    expect(agreesWithZod(z.object({ a: z.literal([undefined, 'a']) }), {})).toBe(true);
  });
});

// L3 (low; gains: whoever reads logs, errors or the model's tool output). The numeric check
// reads a JSON number as `${number}`, but JSON.parse rounds a number of more than 15-17
// significant digits: a key of 20 digits echoed as a number reads 98765432109876540000, which
// no longer holds the key, so the rounded value (its first 16 digits) goes out unredacted.
// secrets-redteam-4f F2 chose a key below 2^53, where every digit survives.
describe('L3: a key of digits beyond 2^53 echoed as a JSON number', () => {
  const DIGITS = '98765432109876543210';
  const ROUNDED = String(Number(DIGITS)).slice(0, 16); // what the echo shows of the key
  let service: TestServer;
  beforeAll(async () => {
    // The service read the key as a number and echoes its JSON text, every digit as received.
    service = await startTestServer((request, response) => {
      const key = String(request.headers['x-api-key']);
      const echo = (body: string) => {
        response.writeHead(body.includes('"detail"') ? 422 : 200, {
          'content-type': 'application/json',
        });
        response.end(body.replace('"KEY"', key));
      };
      if (request.body.includes('tools/call')) {
        const structuredContent = catalogPayload();
        const [product] = structuredContent.products;
        if (product) Object.assign(product, { debug: { api_key: 'KEY' } });
        const result = { content: [], structuredContent };
        return echo(JSON.stringify({ jsonrpc: '2.0', id: rpcIdOf(request.body), result }));
      }
      const issue = { type: 'int_parsing', loc: ['header', 'x-api-key'], msg: 'bad', input: 'KEY' };
      echo(JSON.stringify({ detail: [issue] }));
    });
  });
  afterAll(() => service.close());

  const client = () =>
    new CatalogClient({
      apiKey: DIGITS,
      baseUrl: service.origin,
      mcpUrl: `${service.origin}/mcp`,
      maxRetries: 0,
    });

  it('is not in the error of a 422 that quotes it', async () => {
    const error = await client()
      .websites.search({ query: 'nike' })
      .catch((caught: unknown) => caught);
    expect(service.requests.at(-1)?.headers['x-api-key']).toBe(DIGITS);
    const shown = [String(error), inspect(error, { depth: 20, showHidden: true })].join('\n');
    expect(shown).toContain('422');
    expect(shown).not.toContain(ROUNDED);
  });

  it("is not in search_catalog's output", async () => {
    const [search] = createCatalogToolList({ client: client(), include: ['search_catalog'] });
    const input = { query: 'trail shoe', limit: null, cursor: null, placements: null };
    const output = JSON.stringify(await search?.execute(input as never));
    expect(output).toContain('Trail shoe');
    expect(output).not.toContain(ROUNDED);
  });
});

// L4 (low; a misconfiguration, no attacker): b0fddd6 checks a store's methods when a
// CatalogClient is made ("a JavaScript store lacking a method is a ConfigurationError naming
// it"), but ChatSession and ConversationTokenManager take a store of their own, unchecked. A
// store without `set` lets ChatSession create the conversation (POST /v1/conversations, not
// idempotent) and only then fail (StoreUnavailableError): each try creates one more conversation.
describe('L4: a ChatSession store lacking a method', () => {
  let service: TestServer;
  beforeAll(async () => {
    service = await startTestServer((_request, response) => {
      sendJson(response, 201, { conversation_id: `conv_${service.requests.length}` });
    });
  });
  afterAll(() => service.close());

  it('is refused when the session is made, naming the method, before any conversation is created', async () => {
    const client = new CatalogClient({ apiKey: 'ck_test_key_l4', baseUrl: service.origin });
    const memory = new MemoryCatalogStore();
    // A store written in JavaScript that forgot `set`.
    const store = {
      get: memory.get.bind(memory),
      setIfAbsent: memory.setIfAbsent.bind(memory),
      delete: memory.delete.bind(memory),
      deleteIfEquals: memory.deleteIfEquals.bind(memory),
      lock: memory.lock.bind(memory),
    } as unknown as CatalogStore;
    const made = (() => {
      try {
        return new ChatSession({
          sessionId: 'chat_1',
          store,
          createConversation: ({ signal }) => client.conversations.create({}, { signal }),
          mintToken: () => Promise.reject(new Error('not used')),
          sendTurn: () => Promise.reject(new Error('not used')),
        });
      } catch (error) {
        return error;
      }
    })();
    if (made instanceof ChatSession) {
      for (let attempt = 0; attempt < 2; attempt++) {
        // A StoreUnavailableError ("storing a session value"), after the POST went out.
        await made.conversationId().catch(() => undefined);
      }
    } else {
      expect(made).toBeInstanceOf(ConfigurationError);
      expect(String(made)).toContain('store.set');
    }
    expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});
