/** How many requests a caller may make: a burst at once, then `perMinute` on average. */
export interface RateLimit {
  burst: number;
  perMinute: number;
}

interface Bucket {
  tokens: number;
  /** Monotonic time of the last refill, in ms. */
  at: number;
}

/**
 * Token buckets by key (a session, a client address), in memory. At most `maxKeys` buckets
 * are kept, the least recently used dropped first, so a flood of new keys cannot grow it;
 * a dropped key starts again with a full bucket (the per-address limit still holds).
 * Time comes from the monotonic clock, so a wall-clock step neither blocks nor frees anyone.
 */
export class RateLimiter {
  readonly #limit: RateLimit;
  readonly #maxKeys: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(limit: RateLimit, maxKeys = 10_000, now: () => number = () => performance.now()) {
    this.#limit = limit;
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  /** Takes one request for `key`: undefined when allowed, else the seconds to wait. */
  take(key: string): number | undefined {
    const now = this.#now();
    const perMs = this.#limit.perMinute / 60_000;
    const bucket = this.#buckets.get(key) ?? { tokens: this.#limit.burst, at: now };
    bucket.tokens = Math.min(this.#limit.burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    // Re-inserted, so the map's order is least recently used first.
    this.#buckets.delete(key);
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > this.#maxKeys) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  }
}
