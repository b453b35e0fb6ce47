import type { CatalogStore } from '@catalogkit/core';
import { SessionLockTimeoutError } from '@catalogkit/core/errors';
import type { RateLimit } from './rate-limit.js';

/** Takes one request for a key: undefined when allowed, else the seconds to wait. */
export interface Limiter {
  take(key: string): number | undefined | Promise<number | undefined>;
}

/** How long one request waits for another instance to finish counting on the same key. */
const LOCK_WAIT_MS = 2_000;
/** A crashed instance's hold on a key frees itself after this long. */
const LOCK_LEASE_MS = 2_000;

/**
 * The token bucket of `RateLimiter`, in a shared `CatalogStore`, so a client's limit holds
 * across every instance behind a load balancer (otherwise each instance would grant it the
 * whole limit again).
 *
 * The bucket is kept as a time, not a count: the key `webchat:rate:<name>:<client>` lives
 * exactly as long as the bucket takes to refill, so its remaining TTL is the bucket's debt
 * (each request adds one interval, `60 s / perMinute`; a request is allowed while the debt
 * stays within `burst` intervals). The store times the TTL, so instances whose clocks differ
 * agree, and a full bucket is simply no key. Each key lives at most `burst / perMinute`
 * minutes (2.5 minutes with the defaults). Reading and writing a key happen under the
 * store's lock of that key; a request that cannot get the lock within 2 s (thousands at
 * once from one client) is refused as over the limit.
 */
export class StoreRateLimiter implements Limiter {
  readonly #store: CatalogStore;
  readonly #prefix: string;
  readonly #intervalMs: number;
  readonly #capacityMs: number;

  /** `name` tells apart limiters sharing a store (e.g. `chat:session`). */
  constructor(store: CatalogStore, name: string, limit: RateLimit) {
    this.#store = store;
    this.#prefix = `webchat:rate:${name}:`;
    this.#intervalMs = 60_000 / limit.perMinute;
    this.#capacityMs = limit.burst * this.#intervalMs;
  }

  async take(key: string): Promise<number | undefined> {
    const name = this.#prefix + key;
    let release: () => Promise<void>;
    try {
      release = await this.#store.lock(name, { leaseMs: LOCK_LEASE_MS, waitMs: LOCK_WAIT_MS });
    } catch (error) {
      if (error instanceof SessionLockTimeoutError) return 1;
      throw error;
    }
    try {
      const debtMs = (await this.#store.get(name))?.ttlMs ?? 0;
      const overMs = debtMs + this.#intervalMs - this.#capacityMs;
      if (overMs > 0) return Math.max(1, Math.ceil(overMs / 1000));
      await this.#store.set(name, '1', debtMs + this.#intervalMs);
      return undefined;
    } finally {
      // A failed release must not hide the answer; the lease frees the lock.
      await release().catch(() => undefined);
    }
  }
}
