import { monotonicMs, sleep } from '../async.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { SessionLockTimeoutError, StoreUnavailableError } from '../errors/conversation-errors.js';
import type { CatalogStore, LockOptions, ReleaseLock, StoredValue } from './catalog-store.js';

/** Options of {@link MemoryCatalogStore}. */
export interface MemoryCatalogStoreOptions {
  /**
   * Clock in ms that times TTLs and lock leases (default `performance.now`, monotonic: only
   * differences count, so a wall-clock step neither expires entries early nor keeps them
   * late); tests pass a fake one.
   */
  now?: () => number;
  /**
   * Most entries held (default 10,000, a few megabytes). Past it the least recently used
   * entry written with `set` is evicted (an evicted session mints a new token or creates a
   * new conversation on its next use; an evicted rate-limit pause is learnt again from the
   * next 429). An entry created by `setIfAbsent` is a claim (a collection update's write-ahead
   * record, an approval used) and is never evicted before it expires, since
   * forgetting it could apply a change twice: when live claims fill the store, a write of a
   * new key fails with a StoreUnavailableError (the update is then not sent) until some
   * expire (at most 10 minutes for update records). Raise it for a process that sends more
   * than a few thousand updates in 10 minutes.
   */
  maxEntries?: number;
}

/** Entries held by default: enough for a busy process, a few megabytes at most. */
const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry {
  value: string;
  expiresAt: number | undefined;
}

/** Entries held by this store's two maps: claims (never evicted) and the rest. */
type Shelf = Map<string, Entry>;

interface Holder {
  owner: symbol;
  leaseEndsAt: number;
}

/**
 * Expired entries are swept every this many reads and writes, so abandoned entries do not
 * pile up in a process that mostly reads.
 */
const SWEEP_EVERY_OPERATIONS = 100;

/**
 * A {@link CatalogStore} in this process's memory: the default. What it holds (chat
 * sessions, the collection guard, the rate-limit pause) lasts as long as the process and is
 * seen by this process only; use a Redis store of `@catalogkit/redis` to share it across
 * processes and serverless invocations.
 */
export class MemoryCatalogStore implements CatalogStore {
  readonly #now: () => number;
  readonly #maxEntries: number;
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently
  // used entry first, so eviction takes the first key.
  readonly #entries: Shelf = new Map();
  /** Entries created by `setIfAbsent`: evicted only once expired. */
  readonly #claims: Shelf = new Map();
  readonly #holders = new Map<string, Holder>();
  #operations = 0;

  /** @throws ConfigurationError when `maxEntries` is not a positive integer. */
  constructor(options: MemoryCatalogStoreOptions = {}) {
    this.#now = options.now ?? monotonicMs;
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new ConfigurationError('option maxEntries must be a positive integer');
    }
    this.#maxEntries = maxEntries;
  }

  /** Entries held now (expired ones not yet swept included). */
  get size(): number {
    return this.#entries.size + this.#claims.size;
  }

  async get(key: string): Promise<StoredValue | undefined> {
    this.#countOperation();
    const shelf = this.#shelfOf(key);
    const entry = shelf?.get(key);
    if (!shelf || !entry) return undefined;
    const ttlMs = entry.expiresAt === undefined ? undefined : entry.expiresAt - this.#now();
    if (ttlMs !== undefined && ttlMs <= 0) {
      shelf.delete(key);
      return undefined;
    }
    shelf.delete(key);
    shelf.set(key, entry);
    return { value: entry.value, ttlMs };
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.#countOperation();
    // A claim stays a claim when its holder writes its outcome over it.
    const shelf = this.#live(key) && this.#claims.has(key) ? this.#claims : this.#entries;
    this.#write(shelf, key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    this.#countOperation();
    // No await between the check and the write: in one process that makes it atomic.
    if (this.#live(key)) return false;
    this.#write(this.#claims, key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
    this.#claims.delete(key);
  }

  async deleteIfEquals(key: string, value: string): Promise<boolean> {
    this.#countOperation();
    // No await between the check and the delete: in one process that makes it atomic.
    if (!this.#live(key) || this.#shelfOf(key)?.get(key)?.value !== value) return false;
    await this.delete(key);
    return true;
  }

  #shelfOf(key: string): Shelf | undefined {
    if (this.#claims.has(key)) return this.#claims;
    return this.#entries.has(key) ? this.#entries : undefined;
  }

  /** Whether `key` holds an entry that has not expired. */
  #live(key: string): boolean {
    const entry = this.#shelfOf(key)?.get(key);
    return entry !== undefined && (entry.expiresAt === undefined || entry.expiresAt > this.#now());
  }

  /** Writes on `shelf`, first making room for a new key (or throwing when there is none). */
  #write(shelf: Shelf, key: string, value: string, ttlMs: number | undefined): void {
    const existed = this.#entries.delete(key) || this.#claims.delete(key);
    if (ttlMs !== undefined && ttlMs <= 0) return;
    if (!existed) this.#makeRoom();
    const expiresAt = ttlMs === undefined ? undefined : this.#now() + ttlMs;
    shelf.set(key, { value, expiresAt });
  }

  async lock(key: string, { leaseMs, waitMs, signal }: LockOptions): Promise<ReleaseLock> {
    const deadline = this.#now() + waitMs;
    for (let held = this.#holders.get(key); held && held.leaseEndsAt > this.#now(); ) {
      const waitLeft = deadline - this.#now();
      if (waitLeft <= 0) throw new SessionLockTimeoutError(key, waitMs);
      // Polled: a lock is taken once per token life or conversation, so a short wait is cheap.
      await sleep(Math.max(1, Math.min(waitLeft, held.leaseEndsAt - this.#now(), 10)), signal);
      held = this.#holders.get(key);
    }
    const owner = Symbol(key);
    this.#holders.set(key, { owner, leaseEndsAt: this.#now() + leaseMs });
    return async () => {
      // A holder whose lease ran out must not free the lock of the next holder.
      if (this.#holders.get(key)?.owner === owner) this.#holders.delete(key);
    };
  }

  #countOperation(): void {
    if (++this.#operations % SWEEP_EVERY_OPERATIONS === 0) this.#sweep();
  }

  /**
   * Room for one more key: the least recently used entry that is not a claim goes first; with
   * none left, expired claims are swept; a store full of live claims refuses the write.
   */
  #makeRoom(): void {
    if (this.size < this.#maxEntries) return;
    const oldest = this.#entries.keys().next();
    if (!oldest.done) {
      this.#entries.delete(oldest.value);
      return;
    }
    this.#sweep();
    if (this.size < this.#maxEntries) return;
    throw new StoreUnavailableError(
      'MemoryCatalogStore',
      `full: it holds ${this.#maxEntries} claims that have not expired (raise maxEntries)`,
    );
  }

  #sweep(): void {
    const now = this.#now();
    for (const shelf of [this.#entries, this.#claims]) {
      for (const [key, entry] of shelf) {
        if (entry.expiresAt !== undefined && entry.expiresAt <= now) shelf.delete(key);
      }
    }
  }
}
