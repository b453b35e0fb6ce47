import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RepeatedUpdateError } from '../src/errors/index.js';
import { sharedPauseMs } from '../src/http/rate-limit-pause.js';
import {
  type AnyCatalogTool,
  CatalogClient,
  type CatalogStore,
  createCatalogToolList,
  MemoryCatalogStore,
  NotFoundError,
  RateLimitError,
  StoreUnavailableError,
} from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

/*
 * The red team's findings against the shared store (issue 25), one block each. Each test
 * failed before its fix; "instances" are separate clients, tool sets or update memories
 * sharing one store, as separate processes sharing one Redis are (the multi-process suite
 * in packages/integration proves the cross-process ones with real processes and Redis).
 */

const OTHER_KEY = 'ck_test_another_tenant_key_0042';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store that passes every call to `inner` and records what was written. */
class RecordingStore implements CatalogStore {
  readonly name = 'recording store';
  readonly written: { key: string; value: string; ttlMs: number | undefined }[] = [];
  constructor(readonly inner: CatalogStore = new MemoryCatalogStore()) {}
  get(key: string) {
    return this.inner.get(key);
  }
  set(key: string, value: string, ttlMs?: number) {
    this.written.push({ key, value, ttlMs });
    return this.inner.set(key, value, ttlMs);
  }
  setIfAbsent(key: string, value: string, ttlMs?: number) {
    this.written.push({ key, value, ttlMs });
    return this.inner.setIfAbsent(key, value, ttlMs);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  deleteIfEquals(key: string, value: string) {
    return this.inner.deleteIfEquals(key, value);
  }
  lock(key: string, options: Parameters<CatalogStore['lock']>[1]) {
    return this.inner.lock(key, options);
  }
}

// ---------------------------------------------------------------------------------------
// One service: the valid key owns col_1; any other key gets 404 for it. Requests with any
// base path reach it (the path before /v1 is ignored).

type Mode = 'ok' | 'drop' | '429-huge';
let mode: Mode = 'ok';
let service: TestServer;
let second: TestServer;
/** Clauses of col_1 at each service, as the service applies PATCHes. */
const clauses = new Map<TestServer, { clause_id: string; product_ids: string[] }[]>();
let onPatch: () => void = () => undefined;

function patchesAt(server: TestServer): ReceivedRequest[] {
  return server.requests.filter((request) => request.method === 'PATCH');
}

function answerAs(server: () => TestServer) {
  return (request: ReceivedRequest, response: ServerResponse) => {
    if (mode === '429-huge') {
      mode = 'ok';
      return sendJson(response, 429, { detail: 'Too many' }, { 'retry-after': '99999999999' });
    }
    if (request.url.includes('/v1/websites/search')) {
      return sendJson(response, 200, { websites: [] });
    }
    if (request.headers['x-api-key'] !== TEST_KEY) {
      return sendJson(response, 404, { detail: 'Collection not found.' });
    }
    onPatch();
    const body = JSON.parse(request.body) as {
      name?: string;
      add_clauses?: { product_ids: string[] }[];
      remove_clause_ids?: string[];
    };
    const held = clauses.get(server()) ?? [];
    for (const clause of body.add_clauses ?? []) {
      held.push({ clause_id: `cl_${held.length + 1}`, product_ids: clause.product_ids });
    }
    clauses.set(server(), held);
    const collection = {
      collection_id: 'col_1',
      name: body.name ?? 'Summer',
      description: 'secret notes of the owner',
      clauses: held.map((clause) => ({
        ...clause,
        brand_ids: [],
        website_ids: [],
        category_ids: [],
      })),
      user_id: 'usr_owner',
    };
    if (mode === 'drop') {
      response.socket?.destroy();
      return;
    }
    return sendJson(response, 200, collection);
  };
}

beforeAll(async () => {
  service = await startTestServer();
  service.handle(answerAs(() => service));
  second = await startTestServer();
  second.handle(answerAs(() => second));
});
afterAll(async () => {
  await service.close();
  await second.close();
});
beforeEach(() => {
  mode = 'ok';
  onPatch = () => undefined;
  clauses.clear();
});

function client(
  options: { store?: CatalogStore; apiKey?: string; base?: string; timeoutMs?: number } = {},
) {
  return new CatalogClient({
    apiKey: options.apiKey ?? TEST_KEY,
    baseUrl: options.base ?? service.origin,
    timeoutMs: options.timeoutMs ?? 5_000,
    maxRetries: 0,
    ...(options.store ? { store: options.store } : {}),
  });
}

/** The update tool of one instance: its own client (and key, service), the shared store. */
function instance(
  store: CatalogStore,
  options: { apiKey?: string; base?: string; timeoutMs?: number } = {},
): AnyCatalogTool {
  const [tool] = createCatalogToolList({
    client: client({ ...options, store }),
    include: ['update_collection'],
  });
  return tool as AnyCatalogTool;
}

async function outcome(tool: AnyCatalogTool, input: Record<string, unknown>): Promise<unknown> {
  try {
    return await tool.execute({ collection_id: 'col_1', ...input } as never);
  } catch (error) {
    return error;
  }
}

const clause = (product: string) => ({
  product_ids: [product],
  brand_ids: [],
  website_ids: [],
  category_ids: [],
});

describe('F1: the update memory is scoped by service and API key', () => {
  it('another API key sharing the store reaches the service (its 404), never the owner’s collection', async () => {
    const store = new MemoryCatalogStore();
    const add = { add_clauses: [clause('prod_secret')] };
    expect(await outcome(instance(store), add)).toMatchObject({ response: { name: 'Summer' } });
    const before = patchesAt(service).length;
    const other = await outcome(instance(store, { apiKey: OTHER_KEY }), add);
    expect(other).toBeInstanceOf(NotFoundError);
    expect(JSON.stringify(other)).not.toContain('secret notes');
    expect(patchesAt(service).length).toBe(before + 1);
  });

  it('another key’s update is not refused by the owner’s unknown outcome', async () => {
    const store = new MemoryCatalogStore();
    mode = 'drop';
    const add = { add_clauses: [clause('prod_lost')] };
    expect(await outcome(instance(store), add)).toMatchObject({ outcomeUnknown: true });
    mode = 'ok';
    expect(await outcome(instance(store, { apiKey: OTHER_KEY }), add)).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('the same key on another service (staging and production on one store) sends to each', async () => {
    const store = new MemoryCatalogStore();
    const add = { add_clauses: [clause('prod_42')] };
    await outcome(instance(store), add);
    const production = await outcome(instance(store, { base: second.origin }), add);
    expect(production).toMatchObject({ request: { update: add } });
    expect(patchesAt(second)).toHaveLength(1);
    expect(clauses.get(second)?.[0]?.product_ids).toEqual(['prod_42']);
  });

  it('stores no key material: keys and values hold digests, never the API key', async () => {
    const store = new RecordingStore();
    mode = 'drop';
    await outcome(instance(store), { add_clauses: [clause('p_keyless')] });
    mode = 'ok';
    await outcome(instance(store), { collection_id: 'col_2', add_clauses: [clause('p_keyless')] });
    const text = JSON.stringify(store.written);
    expect(store.written.length).toBeGreaterThanOrEqual(2);
    for (const form of [
      TEST_KEY,
      Buffer.from(TEST_KEY).toString('base64'),
      Buffer.from(TEST_KEY).toString('hex'),
    ]) {
      expect(text).not.toContain(form);
    }
  });
});

describe('F2: a repeat of an add said another way is the same add', () => {
  const added = clause('prod_same');
  const spellings: [string, Record<string, unknown>][] = [
    ['an empty remove_clause_ids', { remove_clause_ids: [] }],
    ['an empty replace_clauses', { replace_clauses: [] }],
    ['a rename beside it', { name: 'Renamed' }],
  ];
  for (const [label, extra] of spellings) {
    it(`the repeat with ${label} after an unknown outcome is refused, not sent`, async () => {
      const store = new MemoryCatalogStore();
      const first = { add_clauses: [added] };
      mode = 'drop';
      expect(await outcome(instance(store), first)).toMatchObject({ outcomeUnknown: true });
      mode = 'ok';
      const before = patchesAt(service).length;
      const repeat = await outcome(instance(store), { ...first, ...extra });
      expect(repeat).toBeInstanceOf(RepeatedUpdateError);
      expect(patchesAt(service).length).toBe(before);
    });
  }

  it('an id twice, ids or clauses in another order: the same update', async () => {
    const store = new MemoryCatalogStore();
    const a = { ...clause('p1'), brand_ids: ['b2', 'b1'] };
    const b = clause('p2');
    mode = 'drop';
    await outcome(instance(store), { add_clauses: [a, b], remove_clause_ids: ['c1', 'c2'] });
    mode = 'ok';
    const reordered = await outcome(instance(store), {
      add_clauses: [b, { ...a, brand_ids: ['b1', 'b2', 'b1'] }, b],
      remove_clause_ids: ['c2', 'c1', 'c2'],
    });
    expect(reordered).toBeInstanceOf(RepeatedUpdateError);
  });

  it('an update of empty lists only is refused before sending, naming the fields', async () => {
    const before = patchesAt(service).length;
    const refused = await outcome(instance(new MemoryCatalogStore()), {
      add_clauses: [],
      remove_clause_ids: [],
    });
    expect(String((refused as Error).message)).toMatch(/give at least one change: name, /);
    expect(patchesAt(service).length).toBe(before);
  });
});

describe('F5: a hostile Retry-After pauses the others for an hour at most, and can be cleared', () => {
  it('caps the shared pause at an hour, and at the next UTC midnight (limits reset daily)', () => {
    const noon = Date.UTC(2026, 0, 1, 12);
    expect(sharedPauseMs(30_000, noon)).toBe(30_000);
    expect(sharedPauseMs(1e15, noon)).toBe(60 * 60_000);
    // At 23:59 UTC the limit resets within a minute (one more as slack).
    expect(sharedPauseMs(60 * 60_000, Date.UTC(2026, 0, 1, 23, 59))).toBe(2 * 60_000);
  });

  it('a Retry-After of 3,000 years: the others are paused an hour at most; clearing it lets them send', async () => {
    const store = new RecordingStore();
    mode = '429-huge';
    const limited = client({ store });
    await expect(limited.websites.search({ query: 'nike' })).rejects.toBeInstanceOf(RateLimitError);
    const pause = store.written.find((entry) => entry.key.startsWith('catalogkit:rate-limit:'));
    expect(pause?.ttlMs).toBeLessThanOrEqual(60 * 60_000);
    // Another instance reads the shared pause before a change: refused at once, nothing sent.
    const other = client({ store });
    const before = service.requests.length;
    await expect(other.collections.update('col_1', { name: 'x' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(service.requests.length).toBe(before);
    // The instance that met it knows of it: its next search is refused too, nothing sent.
    await expect(limited.websites.search({ query: 'nike' })).rejects.toBeInstanceOf(RateLimitError);
    expect(service.requests.length).toBe(before);
    // Cleared from another instance: both send again (the one that met it reads the store).
    await other.clearRateLimitPause();
    await other.collections.update('col_1', { name: 'x' });
    await limited.websites.search({ query: 'nike' });
    expect(service.requests.length).toBe(before + 2);
  });
});

describe('F6: a store that hangs after the update was sent does not stretch the call', () => {
  it('the call ends within its time limit (and at least a second for the writes), not after the store’s limits', async () => {
    let hung = false;
    const never = new Promise<never>(() => undefined);
    const inner = new MemoryCatalogStore();
    const store: CatalogStore = {
      name: 'hanging store',
      get: (key) => (hung ? never : inner.get(key)),
      set: (key, value, ttlMs) => (hung ? never : inner.set(key, value, ttlMs)),
      setIfAbsent: (key, value, ttlMs) => (hung ? never : inner.setIfAbsent(key, value, ttlMs)),
      delete: (key) => (hung ? never : inner.delete(key)),
      deleteIfEquals: (key, value) => (hung ? never : inner.deleteIfEquals(key, value)),
      lock: (key, options) => (hung ? never : inner.lock(key, options)),
    };
    onPatch = () => {
      hung = true;
    };
    const started = performance.now();
    const result = await outcome(instance(store, { timeoutMs: 1_500 }), {
      name: 'Hung',
      add_clauses: [clause('p_hung')],
    });
    expect(result).toMatchObject({ response: { name: 'Hung' } });
    // A rename after it is not held up either (it takes no record).
    hung = false;
    const renamed = await outcome(instance(store, { timeoutMs: 1_500 }), { name: 'Hung again' });
    const took = performance.now() - started;
    expect(renamed).toMatchObject({ response: { name: 'Hung again' } });
    expect(took).toBeLessThan(2 * (1_500 + 1_000));
  }, 40_000);
});

describe('F7: the pause belongs to the service’s origin', () => {
  it('clients of one origin share it whatever base path they use', async () => {
    const store = new MemoryCatalogStore();
    mode = '429-huge';
    await expect(
      client({ store, base: `${service.origin}/api` }).websites.search({ query: 'nike' }),
    ).rejects.toBeInstanceOf(RateLimitError);
    const before = service.requests.length;
    await expect(
      client({ store, base: `${service.origin}/gateway/v2` }).collections.update('col_1', {
        name: 'x',
      }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(service.requests.length).toBe(before);
  });
});

describe('a claim whose write failed but landed later (a store that timed out)', () => {
  it('does not block the update it never sent: the repeat is sent, once', async () => {
    const inner = new MemoryCatalogStore();
    let failNextClaim = true;
    const store: CatalogStore = {
      name: 'late store',
      get: (key) => inner.get(key),
      set: (key, value, ttlMs) => inner.set(key, value, ttlMs),
      async setIfAbsent(key, value, ttlMs) {
        if (failNextClaim && key.startsWith('catalogkit:guard:')) {
          failNextClaim = false;
          // The write reaches the store after its caller was told it failed.
          setTimeout(() => void inner.setIfAbsent(key, value, ttlMs), 20);
          throw new StoreUnavailableError('late store', 'SET NX failed: no answer in time');
        }
        return inner.setIfAbsent(key, value, ttlMs);
      },
      delete: (key) => inner.delete(key),
      deleteIfEquals: (key, value) => inner.deleteIfEquals(key, value),
      lock: (key, options) => inner.lock(key, options),
    };
    const before = patchesAt(service).length;
    const late = { name: 'Late', add_clauses: [clause('p_late')] };
    const first = await outcome(instance(store, { timeoutMs: 1_000 }), late);
    expect(first).toBeInstanceOf(StoreUnavailableError);
    expect(patchesAt(service).length).toBe(before);
    // The record it wrote late is found and cleared (it was never sent).
    await sleep(200);
    const started = performance.now();
    const repeat = await outcome(instance(store, { timeoutMs: 1_000 }), late);
    expect(repeat).toMatchObject({ response: { name: 'Late' } });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(patchesAt(service).length).toBe(before + 1);
  }, 30_000);
});

describe('the memory store under eviction pressure', () => {
  it('never evicts a live claim for other entries; refuses a new one when full of claims', async () => {
    let now = 0;
    const store = new MemoryCatalogStore({ now: () => now, maxEntries: 10 });
    expect(await store.setIfAbsent('claim', 'pending', 1_000)).toBe(true);
    await store.set('claim', 'unknown', 1_000);
    for (let index = 0; index < 100; index++) await store.set(`session:${index}`, 'x', 5_000);
    expect((await store.get('claim'))?.value).toBe('unknown');
    expect(await store.setIfAbsent('claim', 'again', 1_000)).toBe(false);
    for (let index = 1; index < 10; index++) {
      expect(await store.setIfAbsent(`claim:${index}`, 'x', 1_000)).toBe(true);
    }
    await expect(store.setIfAbsent('claim:10', 'x', 1_000)).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(store.size).toBe(10);
    now = 1_001;
    expect(await store.setIfAbsent('claim:10', 'x', 1_000)).toBe(true);
  });

  it('an unknown outcome survives a churn of sessions larger than the store', async () => {
    const store = new MemoryCatalogStore({ maxEntries: 50 });
    const add = { add_clauses: [clause('p_churn')] };
    mode = 'drop';
    await outcome(instance(store), add);
    mode = 'ok';
    for (let index = 0; index < 500; index++) await store.set(`session:${index}`, 'token');
    expect(await outcome(instance(store), add)).toBeInstanceOf(RepeatedUpdateError);
  });
});
