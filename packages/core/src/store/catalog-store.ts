/** A value read from a {@link CatalogStore}. */
export interface StoredValue {
  value: string;
  /** Remaining life in milliseconds; undefined when the entry never expires. */
  ttlMs: number | undefined;
}

/** Options for {@link CatalogStore.lock}. */
export interface LockOptions {
  /**
   * The lock frees itself after this long even if never released, so a crashed holder
   * cannot block the key forever.
   */
  leaseMs: number;
  /** Give up (SessionLockTimeoutError) after waiting this long for another holder. */
  waitMs: number;
  /** Stops waiting (the call rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** Releases a held lock; releasing a lock that was lost to its lease is a no-op. */
export type ReleaseLock = () => Promise<void>;

/**
 * Where every piece of state that must hold across instances lives: chat sessions'
 * conversation ids and tokens, the collection guard (so an add of unknown outcome is not
 * sent again), the rate-limit pause, and whatever an application keeps beside them (the
 * web chat's approvals and conversations). Implementations: `MemoryCatalogStore` (one
 * process, the default) and the Redis stores of `@catalogkit/redis` (many processes,
 * serverless invocations, restarts). Entries carry a TTL rather than absolute times, so
 * instances with different clocks agree on when an entry expires; each key catalogkit
 * writes is listed in the README's "Deploying" section with what it holds, how long it
 * lives and how large it grows.
 *
 * A store that cannot answer throws (ideally a `StoreUnavailableError` naming itself):
 * catalogkit then refuses to send a change rather than decide without it.
 */
export interface CatalogStore {
  /**
   * Names the store in errors, e.g. `redis (ioredis)`; without it the class name is used.
   * Never put credentials in it.
   */
  readonly name?: string;
  /** Reads a live entry, or undefined when it is missing or expired. */
  get(key: string): Promise<StoredValue | undefined>;
  /**
   * Writes an entry; with `ttlMs` it disappears after that many milliseconds. A write its
   * caller gave up on (its time limit passed) may still be run by the store later.
   */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /**
   * Writes an entry only when the key holds no live entry, atomically: of several instances
   * racing on one key exactly one gets `true`. Every decision to send a collection update
   * (its write-ahead record) and to run an approval is one of these, so none
   * rests on a lock's lease. `MemoryCatalogStore` never evicts an entry created this way
   * before it expires.
   */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Removes an entry (no error when it is missing). */
  delete(key: string): Promise<void>;
  /**
   * Removes the entry only while it holds exactly `value`, atomically (compare-and-delete);
   * `true` when it was removed. A writer clears its own write-ahead record this way, so a
   * late clear never removes the record another writer has written since.
   */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  /**
   * Takes the exclusive lock of `key`, waiting while another holder has it. Used so only
   * one instance mints for a session at a time (the others then read the holder's result).
   */
  lock(key: string, options: LockOptions): Promise<ReleaseLock>;
}

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'delete', 'deleteIfEquals', 'lock'] as const;

/** Whether `value` has every method of a {@link CatalogStore} (checked at run time for options). */
export function isCatalogStore(value: unknown): value is CatalogStore {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return STORE_METHODS.every((method) => typeof record[method] === 'function');
}
