import { monotonicMs } from '../async.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { SessionLockTimeoutError } from '../errors/conversation-errors.js';

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
  /**
   * Writes an entry only when the key holds no live entry, atomically: of several instances
   * racing on one key exactly one gets `true`. Used to claim a collection update or an
   * approval once across instances.
   */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /** Removes an entry (no error when it is missing). */
  delete(key: string): Promise<void>;
  /**
   * Takes the exclusive lock of `key`, waiting while another holder has it. Used so only
   * one instance mints for a session at a time; the others then read the holder's result.
   */
  lock(key: string, options: LockOptions): Promise<ReleaseLock>;
}

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * Clock in ms that times TTLs and lock leases (default `performance.now`, monotonic: only
   * differences count, so a wall-clock step neither expires entries early nor keeps them
   * late); tests pass a fake one.
   */
  now?: () => number;
  /**
   * Most entries held; past it the least recently used entry is evicted (an evicted
   * session mints a new token or creates a new conversation on its next use). Default
   * 10,000, a few megabytes.
   */
  maxEntries?: number;
}

/** Entries held by default: enough for a busy process, a few megabytes at most. */
const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry {
  value: string;
  expiresAt: number | undefined;
}

interface Holder {
  owner: symbol;
  leaseEndsAt: number;
}

/**
 * Expired entries are swept every this many reads and writes, so abandoned sessions do not
 * pile up in a process that mostly reads.
 */
const SWEEP_EVERY_OPERATIONS = 100;

/**
 * A {@link SessionStore} in this process's memory: the default. Sessions survive as long as
 * the process; use `RedisSessionStore` (`@catalogkit/redis`) to share them across processes
 * and serverless invocations.
 */
export class MemorySessionStore implements SessionStore {
  readonly #now: () => number;
  readonly #maxEntries: number;
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently
  // used entry first, so eviction takes the first key.
  readonly #entries = new Map<string, Entry>();
  readonly #holders = new Map<string, Holder>();
  readonly #waiters = new Map<string, Set<() => void>>();
  #operations = 0;

  /** @throws ConfigurationError when `maxEntries` is not a positive integer. */
  constructor(options: MemorySessionStoreOptions = {}) {
    this.#now = options.now ?? monotonicMs;
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new ConfigurationError('option maxEntries must be a positive integer');
    }
    this.#maxEntries = maxEntries;
  }

  /** Entries held now (expired ones not yet swept included). */
  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<StoredValue | undefined> {
    this.#countOperation();
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const ttlMs = entry.expiresAt === undefined ? undefined : entry.expiresAt - this.#now();
    if (ttlMs !== undefined && ttlMs <= 0) {
      this.#entries.delete(key);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return { value: entry.value, ttlMs };
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.#countOperation();
    this.#entries.delete(key);
    if (ttlMs !== undefined && ttlMs <= 0) return;
    const expiresAt = ttlMs === undefined ? undefined : this.#now() + ttlMs;
    this.#entries.set(key, { value, expiresAt });
    this.#evictBeyondBound();
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    // No await between the check and the write: in one process that makes it atomic.
    const entry = this.#entries.get(key);
    if (entry && (entry.expiresAt === undefined || entry.expiresAt > this.#now())) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async lock(key: string, options: LockOptions): Promise<ReleaseLock> {
    const deadline = this.#now() + options.waitMs;
    for (;;) {
      const release = this.#tryAcquire(key, options.leaseMs);
      if (release) return release;
      const waitLeft = deadline - this.#now();
      if (waitLeft <= 0) throw new SessionLockTimeoutError(key, options.waitMs);
      const leaseLeft = (this.#holders.get(key)?.leaseEndsAt ?? 0) - this.#now();
      await this.#waitForRelease(key, Math.max(1, Math.min(waitLeft, leaseLeft)), options.signal);
    }
  }

  #tryAcquire(key: string, leaseMs: number): ReleaseLock | undefined {
    const held = this.#holders.get(key);
    if (held && held.leaseEndsAt > this.#now()) return undefined;
    const owner = Symbol(key);
    this.#holders.set(key, { owner, leaseEndsAt: this.#now() + leaseMs });
    return async () => {
      // A holder whose lease ran out must not free the lock of the next holder.
      if (this.#holders.get(key)?.owner !== owner) return;
      this.#holders.delete(key);
      for (const wake of this.#waiters.get(key) ?? []) wake();
    };
  }

  #waitForRelease(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiters = this.#waiters.get(key) ?? new Set<() => void>();
      this.#waiters.set(key, waiters);
      const finish = (error?: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(wake);
        if (waiters.size === 0) this.#waiters.delete(key);
        if (error === undefined) resolve();
        else reject(error);
      };
      const wake = () => finish();
      const onAbort = () => finish(signal?.reason ?? new Error('aborted'));
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #countOperation(): void {
    if (++this.#operations % SWEEP_EVERY_OPERATIONS === 0) this.#sweep();
  }

  #evictBeyondBound(): void {
    // Least recently used first; expired entries are swept on the regular cadence.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) return;
      this.#entries.delete(key);
    }
  }

  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.#entries.delete(key);
    }
  }
}

/** How {@link readThroughLocked} finds, and if need be creates, one session entry. */
export interface ReadThroughOptions<T> {
  store: SessionStore;
  key: string;
  /** Returns the usable value held in a stored entry, or undefined to create a new one. */
  accept: (stored: StoredValue) => T | undefined;
  /** Creates the value; called by at most one holder of the lock at a time. */
  create: () => Promise<{ value: T; encoded: string; ttlMs?: number }>;
  /** Runs before waiting for the lock (e.g. a backoff after failures). */
  beforeLock?: () => Promise<void>;
  leaseMs: number;
  lockWaitMs: number;
  /** Stops waiting for the lock. */
  signal?: AbortSignal;
}

/**
 * Get-or-create across instances: read; if nothing usable, take the key's lock, read again
 * (another instance may have created it while we waited — its result is used, nothing is
 * created twice), and only then create and store.
 */
export async function readThroughLocked<T>(options: ReadThroughOptions<T>): Promise<T> {
  const { store, key } = options;
  const found = await readUsable(options);
  if (found !== undefined) return found;
  await options.beforeLock?.();
  const release = await store.lock(key, {
    leaseMs: options.leaseMs,
    waitMs: options.lockWaitMs,
    signal: options.signal,
  });
  try {
    const createdMeanwhile = await readUsable(options);
    if (createdMeanwhile !== undefined) return createdMeanwhile;
    const created = await options.create();
    await store.set(key, created.encoded, created.ttlMs);
    return created.value;
  } finally {
    // A failed release must not hide the result or the real error; the lease frees it.
    await release().catch(() => undefined);
  }
}

async function readUsable<T>(options: ReadThroughOptions<T>): Promise<T | undefined> {
  const stored = await options.store.get(options.key);
  return stored ? options.accept(stored) : undefined;
}
