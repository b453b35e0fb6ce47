/** A value read from a {@link SessionStore}. */
export interface StoredValue {
  value: string;
  /** Remaining life in milliseconds; undefined when the entry never expires. */
  ttlMs: number | undefined;
}

/** Options for {@link SessionStore.lock}. */
export interface LockOptions {
  /**
   * The lock frees itself after this long even if never released, so a crashed holder
   * cannot block the session forever.
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
 * Where a session's conversation id and token live, so they survive across processes and
 * serverless invocations. Implementations: `MemorySessionStore` (one process) and
 * `RedisSessionStore` in `@catalogkit/redis` (many). Entries carry a TTL rather than
 * absolute times, so instances with different clocks agree on when a token expires.
 */
export interface SessionStore {
  /** Reads a live entry, or undefined when it is missing or expired. */
  get(key: string): Promise<StoredValue | undefined>;
  /** Writes an entry; with `ttlMs` it disappears after that many milliseconds. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Removes an entry (no error when it is missing). */
  delete(key: string): Promise<void>;
  /**
   * Takes the exclusive lock of `key`, waiting while another holder has it. Used so only
   * one instance mints for a session at a time; the others then read the holder's result.
   */
  lock(key: string, options: LockOptions): Promise<ReleaseLock>;
}
