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
 * Two "instances" in one process: separate clients and tool sets that share (or not) one
 * store. The same guarantees across real processes and Redis are proven by
 * packages/integration/test/multi-process.
 */

/** A store that fails every operation while `failing` is set, as a Redis that went away. */
class FlakyStore implements CatalogStore {
  readonly name = 'flaky test store';
  failing = false;
  readonly inner: MemoryCatalogStore;

  constructor(inner = new MemoryCatalogStore()) {
    this.inner = inner;
  }

  #check(): void {
    if (this.failing) throw new Error('connection refused');
  }
  async get(key: string) {
    this.#check();
    return this.inner.get(key);
  }
  async set(key: string, value: string, ttlMs?: number) {
    this.#check();
    return this.inner.set(key, value, ttlMs);
  }
  async setIfAbsent(key: string, value: string, ttlMs?: number) {
    this.#check();
    return this.inner.setIfAbsent(key, value, ttlMs);
  }
  async delete(key: string) {
    this.#check();
    return this.inner.delete(key);
  }
  async deleteIfEquals(key: string, value: string) {
    this.#check();
    return this.inner.deleteIfEquals(key, value);
  }
  async lock(key: string, options: Parameters<CatalogStore['lock']>[1]) {
    this.#check();
    return this.inner.lock(key, options);
  }
}

type Mode = 'ok' | 'drop' | 'slow' | '429' | '429-long';
/**
 * The `Retry-After` of mode '429', in ms. Long enough that the next call starts before the
 * reset even on a busy machine, so waiting for it is what the test sees.
 */
const RESET_MS = 3_000;
let mode: Mode = 'ok';
let applied = 0;
/** When each request arrived (performance.now), with the key it carried. */
let arrivals: { at: number; url: string; key: string }[] = [];
let service: TestServer;
/** Called when a PATCH arrives, before it is answered. */
let onPatch: () => void = () => undefined;

function answer(request: ReceivedRequest, response: ServerResponse) {
  arrivals.push({
    at: performance.now(),
    url: request.url,
    key: String(request.headers['x-api-key']),
  });
  if (mode === '429' || mode === '429-long') {
    const retryAfter = mode === '429' ? String(RESET_MS / 1_000) : '3600';
    mode = 'ok';
    return sendJson(
      response,
      429,
      { detail: 'Daily limit reached' },
      { 'retry-after': retryAfter },
    );
  }
  if (request.url.startsWith('/v1/websites')) return sendJson(response, 200, { websites: [] });
  onPatch();
  applied += 1;
  const body = { collection_id: 'col_1', name: JSON.parse(request.body).name, clauses: [] };
  if (mode === 'drop') {
    response.socket?.destroy();
    return;
  }
  if (mode === 'slow') {
    setTimeout(() => sendJson(response, 200, body), 200);
    return;
  }
  return sendJson(response, 200, body);
}

beforeAll(async () => {
  service = await startTestServer(answer);
});
afterAll(() => service.close());
beforeEach(() => {
  mode = 'ok';
  arrivals = [];
  onPatch = () => undefined;
});

function client(store?: CatalogStore, apiKey = TEST_KEY) {
  return new CatalogClient({
    apiKey,
    baseUrl: service.origin,
    timeoutMs: 15_000,
    maxRetries: 0,
    ...(store ? { store } : {}),
  });
}

function updateTool(store?: CatalogStore): AnyCatalogTool {
  const [tool] = createCatalogToolList({ client: client(store), include: ['update_collection'] });
  return tool as AnyCatalogTool;
}

/** An add of one product to col_1: what the guard records before sending. */
const addProduct = (product: string) => ({
  collection_id: 'col_1',
  add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: [product] }],
});

async function outcome(tool: AnyCatalogTool, input: unknown): Promise<unknown> {
  try {
    return await tool.execute(input as never);
  } catch (error) {
    return error;
  }
}

/** A store that records the name of each operation it is asked for. */
class CountingStore extends MemoryCatalogStore {
  readonly operations: string[] = [];

  override get(key: string) {
    this.operations.push('get');
    return super.get(key);
  }
  override set(key: string, value: string, ttlMs?: number) {
    this.operations.push('set');
    return super.set(key, value, ttlMs);
  }
  override setIfAbsent(key: string, value: string, ttlMs?: number) {
    this.operations.push('setIfAbsent');
    return super.setIfAbsent(key, value, ttlMs);
  }
  override delete(key: string) {
    this.operations.push('delete');
    return super.delete(key);
  }
}

describe('the rate-limit pause, shared through the store', () => {
  it('a 429 seen by one client makes another client’s change wait until the reset', async () => {
    const store = new MemoryCatalogStore();
    mode = '429';
    await expect(client(store).websites.search({ query: 'nike' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    const limitedAt = arrivals[0]?.at ?? 0;
    const started = performance.now();
    await client(store).collections.update('col_1', { name: 'x' });
    // The change started before the reset, so only the shared pause can hold it back...
    expect(started - limitedAt).toBeLessThan(RESET_MS - 100);
    // ...and nothing reached the service before the reset.
    expect(arrivals).toHaveLength(2);
    expect((arrivals[1]?.at ?? 0) - limitedAt).toBeGreaterThanOrEqual(RESET_MS - 10);
  });

  it('the client that met it waits with its searches too; each client with its own store sends at once', async () => {
    mode = '429';
    const limited = client();
    await expect(limited.websites.search({ query: 'nike' })).rejects.toBeInstanceOf(RateLimitError);
    await client().websites.search({ query: 'nike' });
    // Sent without waiting for the reset the other client was told of.
    expect((arrivals[1]?.at ?? 0) - (arrivals[0]?.at ?? 0)).toBeLessThan(RESET_MS - 100);
    await limited.websites.search({ query: 'nike' });
    expect((arrivals[2]?.at ?? 0) - (arrivals[0]?.at ?? 0)).toBeGreaterThanOrEqual(RESET_MS - 10);
  });

  it('a pause longer than the call may wait ends the call at once, nothing sent', async () => {
    const store = new CountingStore();
    mode = '429-long';
    const limited = client(store);
    const answered = await limited.websites.search({ query: 'nike' }).catch((error) => error);
    expect(answered).toMatchObject({ paused: false });
    expect(store.operations).toEqual(['set']);
    const search = await limited.websites.search({ query: 'nike' }).catch((error) => error);
    expect(search).toBeInstanceOf(RateLimitError);
    // The pause's own error says so, and is never shared again as if the service said it.
    expect(search).toMatchObject({ paused: true, status: 429 });
    expect(store.operations).toEqual(['set', 'get']);
    // An hour, or less before UTC midnight (the cap, tested with a fixed clock in store-redteam).
    const pause = sharedPauseMs(3_600_000);
    expect((search as RateLimitError).retryAfterMs).toBeGreaterThan(pause - 10_000);
    const update = await client(store)
      .collections.update('col_1', { name: 'x' })
      .catch((e) => e);
    expect(update).toBeInstanceOf(RateLimitError);
    expect((update as RateLimitError).outcomeUnknown).toBe(false);
    expect(arrivals).toHaveLength(1);
  });

  it('another API key sharing the store is not paused', async () => {
    const store = new MemoryCatalogStore();
    mode = '429-long';
    await expect(client(store).websites.search({ query: 'nike' })).rejects.toBeInstanceOf(
      RateLimitError,
    );
    await client(store, 'ck_test_another_key_0000000001').collections.update('col_1', {
      name: 'x',
    });
    expect(arrivals).toHaveLength(2);
  });

  it('with no pause in force a search costs no store operation, and a change one read', async () => {
    const store = new CountingStore();
    const shared = client(store);
    for (let index = 0; index < 5; index++) await shared.websites.search({ query: 'nike' });
    expect(store.operations).toEqual([]);
    await shared.collections.update('col_1', { name: 'x' });
    expect(store.operations).toEqual(['get']);
  });

  it('when the store fails, a change fails unsent with a StoreUnavailableError and a search goes on', async () => {
    const store = new FlakyStore();
    store.failing = true;
    const failing = client(store);
    const error = await failing.collections.update('col_1', { name: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).store).toBe('flaky test store');
    expect((error as StoreUnavailableError).message).toContain('flaky test store');
    expect((error as StoreUnavailableError).outcomeUnknown).toBe(false);
    expect(arrivals).toHaveLength(0);
    await failing.websites.search({ query: 'nike' });
    expect(arrivals).toHaveLength(1);
  });
});

describe('the collection guard, shared through the store', () => {
  it('a repeat of an add after an unknown outcome is refused in another instance sharing the store', async () => {
    const store = new MemoryCatalogStore();
    mode = 'drop';
    const before = applied;
    expect(await outcome(updateTool(store), addProduct('dropped'))).toMatchObject({
      outcomeUnknown: true,
    });
    expect(await outcome(updateTool(store), addProduct('dropped'))).toBeInstanceOf(
      RepeatedUpdateError,
    );
    expect(applied).toBe(before + 1);
  });

  it('without a shared store the other instance sends it again (applied twice)', async () => {
    mode = 'drop';
    const before = applied;
    await outcome(updateTool(), addProduct('twice'));
    await outcome(updateTool(), addProduct('twice'));
    expect(applied).toBe(before + 2);
  });

  it('the client’s store is the default: tools on clients sharing one share the guard', async () => {
    const store = new MemoryCatalogStore();
    mode = 'drop';
    const before = applied;
    const tool = () =>
      createCatalogToolList({ client: client(store), include: ['update_collection'] })[0];
    await outcome(tool() as AnyCatalogTool, addProduct('via_client'));
    expect(await outcome(tool() as AnyCatalogTool, addProduct('via_client'))).toBeInstanceOf(
      RepeatedUpdateError,
    );
    expect(applied).toBe(before + 1);
  });

  it('identical adds sent by two instances at once are sent once; the other is refused', async () => {
    const store = new MemoryCatalogStore();
    mode = 'slow';
    const before = applied;
    const results = await Promise.all([
      outcome(updateTool(store), addProduct('racing')),
      outcome(updateTool(store), addProduct('racing')),
    ]);
    expect(applied).toBe(before + 1);
    expect(results.filter((result) => result instanceof RepeatedUpdateError)).toHaveLength(1);
  });

  it('when the store fails before sending, nothing is sent and the model reads that nothing changed', async () => {
    const store = new FlakyStore();
    store.failing = true;
    const tool = updateTool(store);
    const before = applied;
    const error = await outcome(tool, addProduct('no_store'));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(applied).toBe(before);
    expect(tool.errorToModelOutput(error)).toContain('nothing was sent and nothing changed');
  });

  it('when the store fails after sending, the answer is given, and a later repeat is refused (never sent as if unsent)', async () => {
    const store = new FlakyStore();
    onPatch = () => {
      store.failing = true;
    };
    const before = applied;
    // The answer arrives, but the record cannot be cleared: it stays until it expires.
    expect(await outcome(updateTool(store), addProduct('lost_record'))).toMatchObject({
      response: { collection_id: 'col_1' },
    });
    store.failing = false;
    onPatch = () => undefined;
    expect(await outcome(updateTool(store), addProduct('lost_record'))).toBeInstanceOf(
      RepeatedUpdateError,
    );
    expect(applied).toBe(before + 1);
  });
});

describe('the store option', () => {
  it('a client without one has its own memory store', () => {
    expect(client().store).toBeInstanceOf(MemoryCatalogStore);
    expect(client().store).not.toBe(client().store);
  });

  it('a store without its methods (cast past TypeScript) is refused when the client is made', () => {
    // One lacking only `deleteIfEquals` would fail after a change was sent (red team 4f F6).
    expect(() => client({} as CatalogStore)).toThrow(/option store\.get must be a function/);
    const noClear = Object.assign(Object.create(MemoryCatalogStore.prototype), {
      deleteIfEquals: 1,
    });
    expect(() => client(noClear as CatalogStore)).toThrow(
      /option store\.deleteIfEquals must be a function/,
    );
  });

  it('keeps the store out of the client’s JSON', () => {
    expect(JSON.stringify(client(new MemoryCatalogStore()))).not.toContain('store');
  });
});
