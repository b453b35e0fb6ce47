import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RepeatedUpdateError } from '../src/errors/index.js';
import { sharedPauseMs } from '../src/http/rate-limit-pause.js';
import {
  type AnyCatalogTool,
  CatalogClient,
  type CatalogStore,
  type Collection,
  createCatalogToolList,
  MemoryCatalogStore,
  NotFoundError,
  RateLimitError,
  StoreUnavailableError,
} from '../src/index.js';
import { UpdateMemory } from '../src/tools/built-in/update-memory.js';
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
  lock(key: string, options: Parameters<CatalogStore['lock']>[1]) {
    return this.inner.lock(key, options);
  }
}

/**
 * A slow store in front of `inner`: reads, claims and locks are answered `replyMs` after
 * the inner store acted (a slow link back); writes and deletes reach it `writeMs` late (a
 * slow link there). Every operation stays within the memory's store time limit.
 * `onInner` sees each operation as it reaches the inner store.
 */
class DelayedStore implements CatalogStore {
  readonly name = 'delayed store';
  constructor(
    readonly inner: CatalogStore,
    readonly delays: { replyMs?: number; writeMs?: number },
    readonly onInner: (operation: string, key: string) => void = () => undefined,
  ) {}
  async #reply<T>(operation: string, key: string, act: () => Promise<T>): Promise<T> {
    this.onInner(operation, key);
    const result = await act();
    await sleep(this.delays.replyMs ?? 0);
    return result;
  }
  async #write<T>(operation: string, key: string, act: () => Promise<T>): Promise<T> {
    await sleep(this.delays.writeMs ?? 0);
    this.onInner(operation, key);
    return act();
  }
  get(key: string) {
    return this.#reply('get', key, () => this.inner.get(key));
  }
  setIfAbsent(key: string, value: string, ttlMs?: number) {
    return this.#reply('setIfAbsent', key, () => this.inner.setIfAbsent(key, value, ttlMs));
  }
  lock(key: string, options: Parameters<CatalogStore['lock']>[1]) {
    return this.#reply('lock', key, () => this.inner.lock(key, options));
  }
  set(key: string, value: string, ttlMs?: number) {
    return this.#write('set', key, () => this.inner.set(key, value, ttlMs));
  }
  delete(key: string) {
    return this.#write('delete', key, () => this.inner.delete(key));
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
    client: client({ ...options }),
    store,
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
    expect((production as { alreadySelected?: unknown }).alreadySelected).toBeUndefined();
    expect(patchesAt(second)).toHaveLength(1);
    expect(clauses.get(second)?.[0]?.product_ids).toEqual(['prod_42']);
  });

  it('stores no key material: keys and values hold digests, never the API key', async () => {
    const store = new RecordingStore();
    mode = 'drop';
    await outcome(instance(store), { name: 'Keyless' });
    mode = 'ok';
    await outcome(instance(store), { name: 'Keyless 2' });
    const text = JSON.stringify(store.written);
    expect(store.written.length).toBeGreaterThan(3);
    for (const form of [
      TEST_KEY,
      Buffer.from(TEST_KEY).toString('base64'),
      Buffer.from(TEST_KEY).toString('hex'),
    ]) {
      expect(text).not.toContain(form);
    }
  });
});

describe('F2: equivalent updates are one update, and exactly that is sent', () => {
  const added = clause('prod_same');
  const spellings: [string, Record<string, unknown>][] = [
    ['an empty remove_clause_ids', { remove_clause_ids: [] }],
    ['an empty replace_clauses', { replace_clauses: [] }],
    ['an empty add_clauses beside a rename', { name: 'Renamed', add_clauses: [] }],
  ];
  for (const [label, extra] of spellings) {
    it(`the repeat with ${label} after an unknown outcome is refused, not sent`, async () => {
      const store = new MemoryCatalogStore();
      const first = label.includes('rename') ? { name: 'Renamed' } : { add_clauses: [added] };
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

  it('sends the normal form: no empty list, no duplicate, the same bytes for every spelling', async () => {
    const store = new MemoryCatalogStore();
    await outcome(instance(store), {
      name: 'Normal',
      add_clauses: [clause('p2'), clause('p1'), clause('p2')],
      replace_clauses: [],
      remove_clause_ids: ['c2', 'c1', 'c1'],
    });
    const body = JSON.parse(patchesAt(service).at(-1)?.body ?? '{}');
    expect(body).toEqual({
      name: 'Normal',
      add_clauses: [clause('p1'), clause('p2')],
      remove_clause_ids: ['c1', 'c2'],
    });
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

// ---------------------------------------------------------------------------------------
// The memory itself, with a slow store at scaled-down time limits (the store time limit is
// 600 ms; the slow instance's store answers every operation within 540 ms of it).

const STORE_MS = 600;
const SLOW_MS = 540;
const unknownOutcome = (error: unknown) =>
  (error as { outcomeUnknown?: boolean }).outcomeUnknown === true;
const answer = (name: string): Collection => ({ collection_id: 'c', name });

describe('F3: takeovers and the in-flight mark are atomic, with no lease to outlive', () => {
  it('two instances taking over an old success at once (one on a slow store): sent once', async () => {
    const inner = new MemoryCatalogStore();
    const fast = new UpdateMemory(inner, { storeTimeoutMs: STORE_MS });
    const add = { add_clauses: [clause('prod_dup')] };
    await fast.run('c', add, async () => answer('added'), unknownOutcome);
    await fast.run(
      'c',
      { remove_clause_ids: ['cl_1'] },
      async () => answer('removed'),
      unknownOutcome,
    );
    // The shopper asks to add it back; the call reaches two instances, A on a slow link.
    let sends = 0;
    const send = async () => {
      sends += 1;
      await sleep(50);
      return answer('added again');
    };
    let startB: () => void = () => undefined;
    const bMayStart = new Promise<void>((resolve) => {
      startB = resolve;
    });
    let triggered = false;
    const slow = new DelayedStore(inner, { replyMs: SLOW_MS, writeMs: SLOW_MS }, (op, key) => {
      // B arrives just after a lease taken now (2 store operations) would have run out,
      // while A's writes are still on their way.
      if (triggered || !(op === 'lock' || key.includes(':takeover:'))) return;
      triggered = true;
      setTimeout(startB, 2 * STORE_MS + 100);
    });
    const a = new UpdateMemory(slow, { storeTimeoutMs: STORE_MS });
    const b = new UpdateMemory(inner, { storeTimeoutMs: STORE_MS });
    const options = { timeoutMs: 2_000, holdMs: 2_000 + STORE_MS };
    const first = a.run('c', add, send, unknownOutcome, options).catch((error) => error);
    await bMayStart;
    const repeat = b.run('c', add, send, unknownOutcome, options).catch((error) => error);
    const results = await Promise.all([first, repeat]);
    expect(sends).toBe(1);
    expect(results.filter((result) => (result as { sent?: boolean }).sent === true)).toHaveLength(
      1,
    );
  }, 30_000);

  it('an update sent while another of the collection is out: its state stays unknown', async () => {
    const inner = new MemoryCatalogStore();
    let answerA: (collection: Collection) => void = () => undefined;
    let startB: () => void = () => undefined;
    const bMayStart = new Promise<void>((resolve) => {
      startB = resolve;
    });
    let triggered = false;
    const slow = new DelayedStore(inner, { replyMs: SLOW_MS, writeMs: SLOW_MS }, (op, key) => {
      const marksSend = op === 'lock' || (op === 'setIfAbsent' && key.includes('sending'));
      if (triggered || !marksSend) return;
      triggered = true;
      setTimeout(startB, 2 * STORE_MS + 60);
    });
    const a = new UpdateMemory(slow, { storeTimeoutMs: STORE_MS });
    const first = a.run(
      'c',
      { name: 'A' },
      () =>
        new Promise<Collection>((resolve) => {
          answerA = resolve;
        }),
      unknownOutcome,
    );
    await bMayStart;
    // B's writes reach the store late too: after A's, with what B read before them.
    const b = new UpdateMemory(new DelayedStore(inner, { writeMs: SLOW_MS }), {
      storeTimeoutMs: STORE_MS,
    });
    await b.run('c', { name: 'B' }, async () => answer('B'), unknownOutcome);
    await sleep(3 * SLOW_MS);
    // A's update is still out: what B's answer showed must not be trusted.
    const reader = new UpdateMemory(inner, { storeTimeoutMs: STORE_MS });
    expect(await reader.lastKnownState('c')).toBeUndefined();
    answerA(answer('A'));
    await first;
  }, 30_000);
});

describe('F4: a claim outlives its holder’s time, however long the client may take', () => {
  it('a holder slower than the memory’s life: the repeat waits for it, never sends', async () => {
    let now = 0;
    const store = new MemoryCatalogStore({ now: () => now });
    // A 2 s memory life, a holder allowed 3 s (plus two store operations).
    const a = new UpdateMemory(store, { ttlMs: 2_000, storeTimeoutMs: 500 });
    const b = new UpdateMemory(store, { ttlMs: 2_000, storeTimeoutMs: 500 });
    let sends = 0;
    let answerA: () => void = () => undefined;
    const options = { timeoutMs: 3_000, holdMs: 4_000 };
    const first = a.run(
      'c',
      { name: 'slow' },
      () =>
        new Promise<Collection>((resolve) => {
          sends += 1;
          answerA = () => resolve(answer('slow'));
        }),
      unknownOutcome,
      options,
    );
    while (sends === 0) await sleep(1);
    now = 2_500;
    const repeat = b.run(
      'c',
      { name: 'slow' },
      async () => {
        sends += 1;
        return answer('slow');
      },
      unknownOutcome,
      options,
    );
    await sleep(200);
    answerA();
    await first;
    expect((await repeat).sent).toBe(false);
    expect(sends).toBe(1);
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
      lock: (key, options) => (hung ? never : inner.lock(key, options)),
    };
    onPatch = () => {
      hung = true;
    };
    const started = performance.now();
    const result = await outcome(instance(store, { timeoutMs: 1_500 }), { name: 'Hung' });
    const took = performance.now() - started;
    expect(result).toMatchObject({ response: { name: 'Hung' } });
    expect(took).toBeLessThan(1_500 + 1_000);
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
        if (failNextClaim && key.startsWith('catalogkit:update:')) {
          failNextClaim = false;
          // The write reaches the store after its caller was told it failed.
          setTimeout(() => void inner.setIfAbsent(key, value, ttlMs), 20);
          throw new StoreUnavailableError('late store', 'SET NX failed: no answer in time');
        }
        return inner.setIfAbsent(key, value, ttlMs);
      },
      delete: (key) => inner.delete(key),
      lock: (key, options) => inner.lock(key, options),
    };
    const before = patchesAt(service).length;
    const first = await outcome(instance(store, { timeoutMs: 1_000 }), { name: 'Late' });
    expect(first).toBeInstanceOf(StoreUnavailableError);
    expect(patchesAt(service).length).toBe(before);
    await sleep(100);
    const started = performance.now();
    const repeat = await outcome(instance(store, { timeoutMs: 1_000 }), { name: 'Late' });
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
    const memory = new UpdateMemory(store);
    const lost = () => Promise.reject(Object.assign(new Error('lost'), { outcomeUnknown: true }));
    await memory.run('c', { name: 'n' }, lost, unknownOutcome).catch(() => undefined);
    for (let index = 0; index < 500; index++) await store.set(`session:${index}`, 'token');
    const repeat = await memory.run('c', { name: 'n' }, lost, unknownOutcome).catch((e) => e);
    expect(repeat).toBeInstanceOf(RepeatedUpdateError);
  });
});
