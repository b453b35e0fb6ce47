import { SessionLockTimeoutError } from './errors.js';
import type { LockOptions, ReleaseLock, SessionStore, StoredValue } from './store.js';

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** Clock in epoch ms; tests pass a fake one. */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number | undefined;
}

interface Holder {
  owner: symbol;
  leaseEndsAt: number;
}

/** Expired entries are swept every this many writes, so abandoned sessions do not pile up. */
const SWEEP_EVERY_WRITES = 100;

/**
 * A {@link SessionStore} in this process's memory: the default. Sessions survive as long as
 * the process; use `RedisSessionStore` (`@catalogkit/redis`) to share them across processes
 * and serverless invocations.
 */
export class MemorySessionStore implements SessionStore {
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #holders = new Map<string, Holder>();
  readonly #waiters = new Map<string, Set<() => void>>();
  #writes = 0;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  async get(key: string): Promise<StoredValue | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt === undefined) return { value: entry.value, ttlMs: undefined };
    const ttlMs = entry.expiresAt - this.#now();
    if (ttlMs > 0) return { value: entry.value, ttlMs };
    this.#entries.delete(key);
    return undefined;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs !== undefined && ttlMs <= 0) {
      this.#entries.delete(key);
      return;
    }
    const expiresAt = ttlMs === undefined ? undefined : this.#now() + ttlMs;
    this.#entries.set(key, { value, expiresAt });
    if (++this.#writes % SWEEP_EVERY_WRITES === 0) this.#sweep();
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

  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.#entries.delete(key);
    }
  }
}
