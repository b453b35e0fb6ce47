import { sleep } from '../async.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { SessionLockTimeoutError, StoreUnavailableError } from '../errors/conversation-errors.js';
import type { CatalogStore, LockOptions, ReleaseLock, StoredValue } from './catalog-store.js';

/** Options of {@link MemoryCatalogStore}. */
export interface MemoryCatalogStoreOptions {
  /** Clock in ms for TTLs and leases; default `performance.now` (tests fake it). */
  now?: () => number;
  /**
   * Most entries held (default 10,000); past it the least recently used `set` entry is evicted.
   * `setIfAbsent` entries (update records) stay until they expire: when they fill the store, a
   * new key's write is a StoreUnavailableError. Raise it past a few thousand updates in 10 min.
   */
  maxEntries?: number;
}

interface Entry {
  value: string;
  expiresAt: number | undefined;
  /** Created by `setIfAbsent`: evicted only once expired. */
  claim: boolean;
}

/** The default {@link CatalogStore}, in this process's memory; `@catalogkit/redis` shares one. */
export class MemoryCatalogStore implements CatalogStore {
  readonly #now: () => number;
  readonly #maxEntries: number;
  // A Map iterates in insertion order: re-inserting on each use keeps the least recently
  // used entry first, so eviction takes the first key.
  readonly #entries = new Map<string, Entry>();
  readonly #holders = new Map<string, { owner: symbol; leaseEndsAt: number }>();
  #operations = 0;

  /** @throws ConfigurationError when `maxEntries` is not a positive integer. */
  constructor(options: MemoryCatalogStoreOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    const maxEntries = options.maxEntries ?? 10_000;
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
    const now = this.#now();
    const entry = this.#live(key, now);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    const ttlMs = entry.expiresAt === undefined ? undefined : entry.expiresAt - now;
    return { value: entry.value, ttlMs };
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.#countOperation();
    // A claim stays a claim when its holder writes its outcome over it.
    this.#write(key, value, ttlMs, this.#live(key)?.claim === true);
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    this.#countOperation();
    // No await between the check and the write: in one process that makes it atomic.
    if (this.#live(key)) return false;
    this.#write(key, value, ttlMs, true);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async deleteIfEquals(key: string, value: string): Promise<boolean> {
    this.#countOperation();
    // No await between the check and the delete: in one process that makes it atomic.
    return this.#live(key)?.value === value && this.#entries.delete(key);
  }

  /** The entry of `key` unless it expired; an expired one is removed. */
  #live(key: string, now = this.#now()): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry?.expiresAt === undefined || entry.expiresAt > now) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  #write(key: string, value: string, ttlMs: number | undefined, claim: boolean): void {
    const existed = this.#entries.delete(key);
    if (ttlMs !== undefined && ttlMs <= 0) return;
    if (!existed) this.#makeRoom();
    const expiresAt = ttlMs === undefined ? undefined : this.#now() + ttlMs;
    this.#entries.set(key, { value, expiresAt, claim });
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

  /** Expired entries are swept every 100 operations, also in a process that only reads. */
  #countOperation(): void {
    if (++this.#operations % 100 === 0) this.#sweep();
  }

  /** Room for one more key: the least recently used non-claim goes, else expired claims. */
  #makeRoom(): void {
    if (this.size < this.#maxEntries) return;
    for (const [key, entry] of this.#entries) {
      if (!entry.claim) {
        this.#entries.delete(key);
        return;
      }
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
    for (const key of this.#entries.keys()) this.#live(key, now);
  }
}
