import { describe, expect, it } from 'vitest';
import {
  type CatalogStore,
  ConversationTokenManager,
  MemoryCatalogStore,
} from '../src/conversations/index.js';
import { StoreUnavailableError } from '../src/errors/index.js';
import { STORE_TIMEOUT_MS } from '../src/store/store-call.js';

/*
 * Red team 4e: "does a hung store still end a call in time?" Wave 4e bounded a session's
 * store reads and writes by callStore (5 s), but the lock and its release are still awaited
 * without any bound: a store (a custom one, a wrapper, a driver with an offline queue) that
 * stops answering those two calls holds the caller forever, after the token was minted.
 */

type Hung = 'lock' | 'release';

/** A memory store with `lock` replaced (it gets the memory store to lock with). */
function storeLocking(
  name: string,
  lock: (inner: MemoryCatalogStore) => CatalogStore['lock'],
  inner = new MemoryCatalogStore(),
): CatalogStore {
  return {
    name,
    get: (key) => inner.get(key),
    set: (key, value, ttlMs) => inner.set(key, value, ttlMs),
    setIfAbsent: (key, value, ttlMs) => inner.setIfAbsent(key, value, ttlMs),
    delete: (key) => inner.delete(key),
    deleteIfEquals: (key, value) => inner.deleteIfEquals(key, value),
    lock: lock(inner),
  };
}

/** A memory store whose lock (or its release) never answers: a store that lost its server. */
function hungStore(hung: Hung): CatalogStore {
  const never = new Promise<never>(() => {});
  return storeLocking('hung store', (inner) => async (key, options) => {
    if (hung === 'lock') return never;
    await inner.lock(key, options);
    return () => never;
  });
}

/** Settles `promise` or says it did not within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> {
  return Promise.race([
    promise,
    new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms)),
  ]);
}

describe('red team 4e: a hung store lock ends the call in time', () => {
  it('a release that never answers: the minted token is still handed out', async () => {
    const manager = new ConversationTokenManager({
      key: 'session:token',
      store: hungStore('release'),
      mintTimeoutMs: 100,
      mint: async () => ({ token: 'tok_1', expiresAt: Date.now() + 60_000 }),
    });
    const settled = await within(manager.getToken(), STORE_TIMEOUT_MS + 2_000);
    manager.close();
    expect(settled).not.toBe('still waiting');
    expect(settled).toBe('tok_1');
  }, 15_000);

  it('a lock that never answers: a StoreUnavailableError within its wait and the store bound', async () => {
    let mints = 0;
    const manager = new ConversationTokenManager({
      key: 'session:token',
      store: hungStore('lock'),
      mintTimeoutMs: 100,
      mint: async () => {
        mints += 1;
        return { token: 'tok_1', expiresAt: Date.now() + 60_000 };
      },
    });
    // lockWaitMs = mintTimeoutMs + 5 s; the store bound adds at most 5 s more.
    const settled = await within(
      manager.getToken().catch((error: unknown) => error),
      100 + 5_000 + STORE_TIMEOUT_MS + 2_000,
    );
    manager.close();
    expect(settled).toBeInstanceOf(StoreUnavailableError);
    expect((settled as StoreUnavailableError).message).toContain('hung store');
    expect(mints).toBe(0);
  }, 20_000);
});

describe('red team 4e: a lock the store grants after the call gave up', () => {
  it('is freed at once, not held for its lease against the next caller', async () => {
    const inner = new MemoryCatalogStore();
    let slow = true;
    // The first lock is granted 11 s late (the call gave up after 5.1 s + 5 s).
    const store = storeLocking(
      'slow store',
      () => async (key, options) => {
        if (!slow) return inner.lock(key, options);
        slow = false;
        await new Promise((resolve) => setTimeout(resolve, 11_000));
        return inner.lock(key, { ...options, leaseMs: 60_000 });
      },
      inner,
    );
    const mint = async () => ({ token: 'tok_1', expiresAt: Date.now() + 60_000 });
    const first = new ConversationTokenManager({ key: 'k', store, mintTimeoutMs: 100, mint });
    expect(await first.getToken().catch((error: unknown) => error)).toBeInstanceOf(
      StoreUnavailableError,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The late lock was freed: the next caller takes it at once (waitMs 0 would refuse it).
    const release = await inner.lock('k', { leaseMs: 1_000, waitMs: 0 });
    await release();
    first.close();
  }, 25_000);
});
