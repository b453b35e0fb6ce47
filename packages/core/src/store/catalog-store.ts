import { ConfigurationError } from '../errors/catalog-error.js';
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
 * Where state shared across instances lives (tokens, the collection guard, the rate-limit
 * pause): `MemoryCatalogStore` (the default) or `@catalogkit/redis`. Entries carry a TTL, so
 * clocks need not agree. A store that cannot answer throws (ideally `StoreUnavailableError`):
 * catalogkit then refuses to send a change rather than guess.
 */
export interface CatalogStore {
  /** Names the store in errors (default its class name); never holds credentials. */
  readonly name?: string;
  /** Reads a live entry, or undefined when it is missing or expired. */
  get(key: string): Promise<StoredValue | undefined>;
  /** Writes an entry, gone after `ttlMs`; one its caller gave up on may still land later. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Writes only when the key holds no live entry, atomically: one racer gets `true`. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Removes an entry (no error when it is missing). */
  delete(key: string): Promise<void>;
  /** Removes the entry only while it holds exactly `value`, atomically; `true` when removed. */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  /** Takes the exclusive lock of `key`, waiting while another holder has it. */
  lock(key: string, options: LockOptions): Promise<ReleaseLock>;
}

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'delete', 'deleteIfEquals', 'lock'] as const;

/**
 * `store`, refused (ConfigurationError naming the method) when a store written in JavaScript
 * lacks one: one missing `deleteIfEquals` or `set` would fail only after a change was sent.
 */
export function checkStore<S extends CatalogStore>(store: S, option = 'store'): S {
  const missing = STORE_METHODS.find((method) => typeof store?.[method] !== 'function');
  if (missing) throw new ConfigurationError(`option ${option}.${missing} must be a function`);
  return store;
}
