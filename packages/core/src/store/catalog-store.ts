/** A value read from a {@link CatalogStore}. */
export interface StoredValue {
  value: string;
  /** Remaining life in milliseconds; undefined when the entry never expires. */
  ttlMs: number | undefined;
}

/** Options for {@link CatalogStore.lock}. */
export interface LockOptions {
  /** The lock frees itself after this long, so a crashed holder cannot block the key. */
  leaseMs: number;
  /** Give up (SessionLockTimeoutError) after waiting this long for another holder. */
  waitMs: number;
  /** Stops waiting (the call rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** Releases a held lock; releasing a lock that was lost to its lease is a no-op. */
export type ReleaseLock = () => Promise<void>;

/**
 * Where state that must hold across instances lives (tokens, the collection guard, the
 * rate-limit pause): `MemoryCatalogStore` (one process, the default) or `@catalogkit/redis`.
 * Entries carry a TTL, not absolute times, so instances with different clocks agree; the
 * README's "Deploying" section lists every key. A store that cannot answer throws (ideally a
 * `StoreUnavailableError`): catalogkit then refuses to send a change rather than guess.
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
   * racing on one key exactly one gets `true` (every decision to send an update is one).
   */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Removes an entry (no error when it is missing). */
  delete(key: string): Promise<void>;
  /** Removes the entry only while it holds exactly `value`, atomically; `true` when removed. */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  /** Takes the exclusive lock of `key`, waiting while another holder has it. */
  lock(key: string, options: LockOptions): Promise<ReleaseLock>;
}
