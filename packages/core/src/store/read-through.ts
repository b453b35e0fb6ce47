import type { CatalogStore, StoredValue } from './catalog-store.js';
import { callStore, STORE_TIMEOUT_MS } from './store-call.js';

/** How {@link readThroughLocked} finds, and if need be creates, one session entry. */
export interface ReadThroughOptions<T> {
  store: CatalogStore;
  key: string;
  /** Returns the usable value held in a stored entry, or undefined to create a new one. */
  accept: (stored: StoredValue) => T | undefined;
  /** Creates the value; called by at most one holder of the lock at a time. */
  create: () => Promise<{ value: T; encoded: string; ttlMs?: number }>;
  /** Runs before waiting for the lock (e.g. a backoff after failures). */
  beforeLock?: () => Promise<void>;
  leaseMs: number;
  lockWaitMs: number;
  signal?: AbortSignal;
}

/**
 * Get-or-create across instances: read; if nothing usable, take the key's lock and read
 * again (another instance may have created it meanwhile), only then create and store.
 */
export async function readThroughLocked<T>(options: ReadThroughOptions<T>): Promise<T> {
  const { store, key, leaseMs, lockWaitMs: waitMs, signal } = options;
  const found = await readUsable(options);
  if (found !== undefined) return found;
  await options.beforeLock?.();
  // Bounded beyond the lock's own wait: a store that stops answering must still end the call.
  const locking = Promise.resolve().then(() => store.lock(key, { leaseMs, waitMs, signal }));
  const limits = { timeoutMs: waitMs + STORE_TIMEOUT_MS };
  const release = await callStore(store, 'locking a session key', () => locking, limits).catch(
    (error: unknown) => {
      // A lock granted after the call gave up is freed at once, not held for its lease.
      locking.then((late) => late()).catch(() => undefined);
      throw error;
    },
  );
  try {
    const createdMeanwhile = await readUsable(options);
    if (createdMeanwhile !== undefined) return createdMeanwhile;
    const created = await options.create();
    await callStore(store, 'storing a session value', () =>
      store.set(key, created.encoded, created.ttlMs),
    );
    return created.value;
  } finally {
    // A failed or hung release must not hide the result or the real error; the lease frees it.
    await callStore(store, 'releasing a session key', release).catch(() => undefined);
  }
}

async function readUsable<T>({ store, key, accept }: ReadThroughOptions<T>) {
  const stored = await callStore(store, 'reading a session value', () => store.get(key));
  return stored ? accept(stored) : undefined;
}
