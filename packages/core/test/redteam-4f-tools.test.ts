import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ConversationTokenManager, createHttpTokenMinter } from '../src/conversations/index.js';
import {
  ConfigurationError,
  RequestValidationError,
  StoreUnavailableError,
} from '../src/errors/index.js';
import { CatalogClient } from '../src/index.js';
import { MemoryCatalogStore } from '../src/store/memory-store.js';
import { callStore } from '../src/store/store-call.js';
import {
  type AnyCatalogTool,
  createCatalogToolList,
  defineCatalogTool,
} from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';
import { startToolService } from './support/tool-service.js';

/*
 * Red team of wave 4f's cuts to core's tools/ (and what they call), against a real loopback
 * service that records what reached it. Each test fails on the merge of the cuts (f5f7cef).
 */

let service: TestServer;
beforeAll(async () => {
  service = await startToolService();
});
afterAll(() => service.close());
beforeEach(() => {
  service.requests.length = 0;
});

function tools(extra: Record<string, unknown> = {}): Record<string, AnyCatalogTool> {
  const list = createCatalogToolList({
    clientOptions: {
      apiKey: TEST_KEY,
      baseUrl: service.origin,
      mcpUrl: `${service.origin}/mcp`,
      timeoutMs: 2_000,
    },
    ...extra,
  }) as AnyCatalogTool[];
  return Object.fromEntries(list.map((tool) => [tool.originalName, tool]));
}

const patchBodies = () =>
  service.requests.filter((r) => r.method === 'PATCH').map((r) => JSON.parse(r.body) as unknown);

/**
 * F1 (medium; nobody gains, the shopper's collection is written with garbage): a list sent
 * as JSON text with Unicode padding (NBSP, BOM, U+2028, \v, \f: what `String#trim` strips and
 * `JSON.parse` does not) was read as the list before the cut (`value.trim()` then parse). The
 * cut parses the untrimmed text, fails, and takes the whole string as a lone id: the schema's
 * own `.trim()` then makes it `["p1","p2"]`, one id with brackets and quotes, which is sent.
 * Either reading the list (as before) or refusing it naming the field is fine; sending the
 * literal text as an id is not.
 */
describe('F1 JSON-text lists with Unicode padding are not sent as one literal id', () => {
  const PADS = ['\u00a0', '\ufeff', '\u2028', '\v', '\f'];

  it.each(PADS.map((pad) => [JSON.stringify(pad), pad]))(
    'update_collection add_clauses[0].product_ids padded with %s',
    async (_name, pad) => {
      const tool = tools().update_collection as AnyCatalogTool;
      const input = {
        collection_id: 'col_1',
        add_clauses: [{ product_ids: `${pad}["p1","p2"]` }],
      };
      let refused: unknown;
      await tool.execute(input as never).catch((error: unknown) => {
        refused = error;
      });
      if (refused !== undefined) {
        expect(RequestValidationError.is(refused)).toBe(true);
        expect(patchBodies()).toEqual([]);
        return;
      }
      // Sent: the ids must be the list's items, never the list's text.
      expect(patchBodies()).toEqual([
        {
          add_clauses: [
            { brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p1', 'p2'] },
          ],
        },
      ]);
    },
  );

  it.each(PADS.map((pad) => [JSON.stringify(pad), pad]))(
    'update_collection remove_clause_ids padded with %s',
    async (_name, pad) => {
      const tool = tools().update_collection as AnyCatalogTool;
      const sent = await tool
        .execute({ collection_id: 'col_1', remove_clause_ids: `["k1","k2"]${pad}` } as never)
        .then(() => patchBodies())
        .catch(() => patchBodies());
      for (const body of sent) {
        expect(body).toEqual({ remove_clause_ids: ['k1', 'k2'] });
      }
    },
  );

  it('the input schema itself: a padded JSON-text list is read as the list (as before the cut)', () => {
    const schema = (tools().update_collection as AnyCatalogTool).inputSchema;
    const parsed = schema.safeParse({
      collection_id: 'col_1',
      add_clauses: [{ product_ids: '\u00a0["p1","p2"]' }],
    });
    const ids = parsed.success
      ? (parsed.data as { add_clauses: { product_ids: string[] }[] }).add_clauses[0]?.product_ids
      : undefined;
    expect(ids === undefined || !ids.some((id) => id.includes('['))).toBe(true);
  });
});

/**
 * F2 (low, before the cut too; nobody outside the application gains): tools are bound with
 * `options.defaults` itself, not with the options as read. `readToolOptions` checks
 * `defaults.limit` (1 to 20) when the tools are made; a later change of the caller's object
 * is used unchecked by every later call, and a result's `request.placements` is the very
 * array of `defaults.placements`, so an application editing a result edits the defaults of
 * every later call. The brief asks "can a caller mutate options after createCatalogToolList
 * and change behaviour?": yes.
 */
describe('F2 the options as read, not the caller’s live object', () => {
  const sentLimits = () =>
    service.requests
      .filter((r) => r.url.startsWith('/v1/websites/search'))
      .map((r) => new URL(r.url, service.origin).searchParams.get('limit'));

  it('a defaults.limit changed after the tools were made is not what a later call sends', async () => {
    const defaults: { limit?: number } = { limit: 3 };
    const tool = tools({ defaults }).search_websites as AnyCatalogTool;
    defaults.limit = 10;
    await tool.execute({ query: 'nike' } as never);
    expect(sentLimits()).toEqual(['3']);
  });

  it('a result’s request.placements is not the defaults array: editing it changes no later call', async () => {
    const placements = ['affiliate'];
    const tool = tools({ defaults: { placements } }).search_catalog as AnyCatalogTool;
    const first = (await tool.execute({ query: 'shoes' } as never)) as {
      request: { placements?: string[] };
    };
    expect(first.request.placements).not.toBe(placements);
  });
});

/**
 * F3 (low; a store written in JavaScript, or a driver object with a non-string `name`):
 * `storeName` read `store.name?.trim()` after the cut, where it checked `typeof name ===
 * 'string'` before. A store whose `name` is not a string turns its own failure into a
 * TypeError (not a StoreUnavailableError), and a store that stops answering makes the 5 s
 * limit's timer throw outside any promise: the call never ends (no bound) and the process
 * gets an uncaught exception.
 */
describe('F3 a store with a non-string name', () => {
  function oddStore(answer: () => Promise<boolean>) {
    const inner = new MemoryCatalogStore();
    return Object.assign(Object.create(inner) as MemoryCatalogStore, {
      name: 7 as unknown as string,
      setIfAbsent: answer,
    });
  }

  it('a failing store is still a StoreUnavailableError naming what was done', async () => {
    const store = oddStore(() => Promise.reject(new Error('ECONNRESET')));
    const error = await callStore(store, 'recording a collection change', () =>
      store.setIfAbsent('k', 'v'),
    ).catch((caught: unknown) => caught);
    expect(StoreUnavailableError.is(error)).toBe(true);
  });

  it('a store that stops answering still ends the call within its limit', async () => {
    const store = oddStore(() => new Promise<boolean>(() => {}));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const ended = await Promise.race([
        callStore(store, 'recording a collection change', () => store.setIfAbsent('k', 'v'), {
          timeoutMs: 50,
        }).catch((caught: unknown) => caught),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 1 s'), 1_000)),
      ]);
      expect(StoreUnavailableError.is(ended)).toBe(true);
      expect(uncaught).toEqual([]);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
    }
  });
});

/**
 * F4 (medium; before the cut too, in conversations/; whoever reads the application's error
 * logs or error tracker gains a live conversation token: a bearer that reads and continues
 * the shopper's conversation for up to 2 h). A mint the service answered 2xx with a body that
 * is not valid JSON (cut by a proxy, a service bug) is a ProtocolError that quotes the body,
 * and the body holds the token just minted, which the redactor does not know yet (it only
 * knows secrets already sent). The TokenMintError wrapping it quotes it too.
 */
describe('F4 a minted token in an unreadable mint answer is never quoted', () => {
  const TOKEN = 'ctok_live_9f8e7d6c5b4a39281706';
  const ANSWERS: [string, string, string][] = [
    ['cut JSON', 'application/json', `{"token":"${TOKEN}","expires_at":"2030-01-01T00:`],
    ['JSON as text/html', 'text/html', `{"token":"${TOKEN}","expires_at":"2030-01-01T00:00:00Z"}`],
    ['an event stream', 'text/event-stream', `data: {"token":"${TOKEN}","expires_at":"x"}\n\n`],
  ];

  it.each(ANSWERS)(
    'a 201 with %s: createHttpTokenMinter and the token manager',
    async (_name, type, body) => {
      const mintService = await startTestServer((_request, response) => {
        response.writeHead(201, { 'content-type': type });
        response.end(body);
      });
      try {
        const client = new CatalogClient({
          apiKey: TEST_KEY,
          baseUrl: mintService.origin,
          timeoutMs: 2_000,
        });
        const mint = createHttpTokenMinter({ client, conversationId: 'conv_1' });
        const direct = await mint({ signal: new AbortController().signal }).catch(
          (error: unknown) => error,
        );
        const manager = new ConversationTokenManager({ mint });
        const managed = await manager.getToken().catch((error: unknown) => error);
        manager.close();
        for (const error of [direct, managed]) {
          expect(error).toBeInstanceOf(Error);
          const text = `${(error as Error).message} ${String((error as Error).stack)}`;
          expect(text).not.toContain(TOKEN);
        }
      } finally {
        await mintService.close();
      }
    },
  );
});

/**
 * F5 (low; before the cut too; nobody gains): a custom tool whose name matches
 * TOOL_NAME_PATTERN but is a member of Object.prototype (`constructor`, `toString`,
 * `valueOf`, `hasOwnProperty`, `__proto__`) is looked up in the built-ins' plain object
 * first, finds the prototype's member, and the tools cannot be made: a TypeError
 * (`definition.description is not a function`), not the tool, nor a ConfigurationError
 * naming `tools.0.name`. (`finalNames`'s `names[original] ??= name` has the same flaw.)
 */
describe('F5 custom tool names that are Object.prototype members', () => {
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])(
    'a custom tool named %s is made and runs (or is refused naming tools.0.name)',
    async (name) => {
      const definition = defineCatalogTool({
        name,
        description: () => 'Echoes q.',
        inputSchema: z.strictObject({ q: z.string() }),
        mutates: false,
        execute: async (input: { q: string }) => ({ request: input, response: input.q }),
        toModelOutput: ({ response }) => String(response),
      });
      let made: AnyCatalogTool[] | undefined;
      try {
        made = createCatalogToolList({
          clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin },
          tools: [definition],
          include: [name],
        }) as AnyCatalogTool[];
      } catch (error) {
        expect(ConfigurationError.is(error)).toBe(true);
        expect((error as Error).message).toContain('tools.0.name');
        return;
      }
      const [tool] = made;
      expect(tool?.name).toBe(name);
      expect(await tool?.execute({ q: 'x' } as never)).toEqual({
        request: { q: 'x' },
        response: 'x',
      });
    },
  );
});

/**
 * F6 (low-medium; a store written in JavaScript against the interface before
 * `deleteIfEquals`, or a wrapper that forgot it; the cost is the shopper's: every second
 * change to a collection is refused for 10 minutes). The client cut removed the run-time
 * shape check of `store` (a ConfigurationError at `new CatalogClient` before) and its
 * changeset says "a store missing a method fails at its first use as a StoreUnavailableError,
 * before any change is sent". Not for `deleteIfEquals`: the guard writes its record, sends
 * the update (answered 200), then fails to clear the record silently, so the next add to the
 * collection, whose first change is known to be applied, is refused as a repeat of a change
 * of unknown outcome.
 */
describe('F6 a store without deleteIfEquals', () => {
  it('is named before any change is sent, or a known outcome does not block the next add', async () => {
    const inner = new MemoryCatalogStore();
    const store = {
      get: inner.get.bind(inner),
      set: inner.set.bind(inner),
      setIfAbsent: inner.setIfAbsent.bind(inner),
      delete: inner.delete.bind(inner),
      lock: inner.lock.bind(inner),
    } as unknown as MemoryCatalogStore;
    let tool: AnyCatalogTool;
    try {
      [tool] = createCatalogToolList({
        clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, timeoutMs: 2_000, store },
        include: ['update_collection'],
      }) as [AnyCatalogTool];
    } catch (error) {
      expect(ConfigurationError.is(error)).toBe(true);
      return;
    }
    const add = (id: string) =>
      tool.execute({ collection_id: 'col_1', add_clauses: [{ product_ids: [id] }] } as never);
    const first = await add('p1').then(
      () => 'answered',
      (error: unknown) => error,
    );
    if (first !== 'answered') {
      // Refused before sending, naming the store: what the changeset promises.
      expect(StoreUnavailableError.is(first)).toBe(true);
      expect(patchBodies()).toEqual([]);
      return;
    }
    // The first add was answered 200: its outcome is known, so a new add must be sent.
    await expect(add('p2')).resolves.toBeDefined();
  });
});

/**
 * F7 (low; before the cut too; the model is blamed for the application's configuration):
 * `readToolOptions` checks `defaults.limit` only. A `defaults.country` that is not a country
 * code (`'uk'` from JavaScript or JSON configuration) is accepted when the tools are made and
 * then refused at every call as "Invalid arguments: country: … Fix these fields and call the
 * tool again", although the model gave no country.
 */
describe('F7 a bad defaults value is the application’s, named when the tools are made', () => {
  it('defaults.country "uk" is a ConfigurationError naming defaults.country, or used as GB', async () => {
    let tool: AnyCatalogTool;
    try {
      [tool] = createCatalogToolList({
        clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin },
        include: ['search_websites'],
        defaults: { country: 'uk' as never },
      }) as [AnyCatalogTool];
    } catch (error) {
      expect(ConfigurationError.is(error)).toBe(true);
      expect((error as Error).message).toContain('defaults.country');
      return;
    }
    const error = await tool.execute({ query: 'nike' } as never).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const text = error === undefined ? '' : (tool.errorToModelOutput(error) ?? '');
    expect(text).not.toMatch(/Invalid arguments: country/);
  });
});

/**
 * F8 (low-medium; before the cut too; the shopper is blocked 10 minutes and the model is told
 * something false): a `pay` hook that throws (a wallet offline, insufficient funds in
 * mppx's `createCredential`) during `update_collection` ends the call with the hook's own
 * error, not a CatalogError. The 402 proves the change was refused before processing, but the
 * guard only clears its record on a CatalogError with `outcomeUnknown: false`: the next add
 * to the collection is refused for 10 minutes as "still being sent or ended with an unknown
 * outcome".
 */
describe('F8 a pay hook that throws on a 402 to an update', () => {
  it('the change is known not applied: the next add is sent', async () => {
    const request = Buffer.from(JSON.stringify({ amount: '25', currency: 'usd' })).toString(
      'base64url',
    );
    let paid = false;
    const payService = await startTestServer((_request, response) => {
      if (!paid) {
        response.writeHead(402, {
          'content-type': 'application/json',
          'www-authenticate': `Payment id="ch_1", realm="r", method="tempo", intent="charge", request="${request}"`,
        });
        response.end('{}');
        return;
      }
      sendJson(response, 200, { collection_id: 'col_1', name: 'Summer', clauses: [] });
    });
    try {
      const [tool] = createCatalogToolList({
        clientOptions: {
          apiKey: TEST_KEY,
          baseUrl: payService.origin,
          timeoutMs: 2_000,
          payment: {
            pay: async () => {
              throw new Error('insufficient funds');
            },
          },
        },
        include: ['update_collection'],
      }) as [AnyCatalogTool];
      const add = (id: string) =>
        tool.execute({ collection_id: 'col_1', add_clauses: [{ product_ids: [id] }] } as never);
      await expect(add('p1')).rejects.toThrow();
      paid = true; // the service now answers 200: only the guard can refuse
      await expect(add('p2')).resolves.toBeDefined();
    } finally {
      await payService.close();
    }
  });
});
