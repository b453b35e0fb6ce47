import { randomUUID } from 'node:crypto';
import { ConfigurationError } from '@catalogkit/core';
import type {
  LockOptions,
  ReleaseLock,
  SessionStore,
  StoredValue,
} from '@catalogkit/core/conversations';
import { SessionLockTimeoutError } from '@catalogkit/core/errors';
import type { Cluster, Redis } from 'ioredis';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A connected ioredis client (or cluster). The store never closes it: you own it. */
  redis: Redis | Cluster;
  /** Prepended to every key (default `catalogkit:session:`). */
  prefix?: string;
  /** Pause between attempts to take a lock another instance holds (default 50 ms). */
  lockPollMs?: number;
}

// Deletes the lock only if it still holds our owner token: a holder whose lease ran out
// must not free the lock a later holder has taken since.
const RELEASE_IF_OWNER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * A {@link SessionStore} in Redis, so a chat session's conversation and token survive
 * across processes and serverless invocations. Keys are `${prefix}${key}` with a TTL equal
 * to the entry's remaining life (`PX`); reads return the remaining life from `PTTL`, so
 * instances whose clocks disagree still agree on when a token expires. Locks are
 * `SET NX PX` with a random owner token, released by compare-and-delete.
 */
export class RedisSessionStore implements SessionStore {
  readonly #redis: Redis | Cluster;
  readonly #prefix: string;
  readonly #lockPollMs: number;

  constructor(options: RedisSessionStoreOptions) {
    if (!options?.redis)
      throw new ConfigurationError('RedisSessionStore: option redis is required');
    this.#redis = options.redis;
    this.#prefix = options.prefix ?? 'catalogkit:session:';
    this.#lockPollMs = options.lockPollMs ?? 50;
  }

  async get(key: string): Promise<StoredValue | undefined> {
    const name = this.#prefix + key;
    // One MULTI, so the value and its remaining life belong together.
    const results = await this.#redis.multi().get(name).pttl(name).exec();
    const [valueReply, ttlReply] = results ?? [];
    if (valueReply?.[0]) throw valueReply[0];
    if (ttlReply?.[0]) throw ttlReply[0];
    const value = valueReply?.[1];
    const pttl = Number(ttlReply?.[1]);
    if (typeof value !== 'string') return undefined;
    // PTTL: -1 means no expiry, -2 means the key vanished between the two reads.
    if (pttl === -2 || pttl === 0) return undefined;
    return { value, ttlMs: pttl === -1 ? undefined : pttl };
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    const name = this.#prefix + key;
    if (ttlMs === undefined) {
      await this.#redis.set(name, value);
    } else if (ttlMs <= 0) {
      await this.#redis.del(name);
    } else {
      await this.#redis.set(name, value, 'PX', Math.ceil(ttlMs));
    }
  }

  async delete(key: string): Promise<void> {
    await this.#redis.del(this.#prefix + key);
  }

  async lock(key: string, options: LockOptions): Promise<ReleaseLock> {
    const name = `${this.#prefix}${key}:lock`;
    const owner = randomUUID();
    // A monotonic clock: a wall clock set back must not make the wait last as much longer.
    const deadline = performance.now() + options.waitMs;
    const leaseMs = Math.max(1, Math.ceil(options.leaseMs));
    for (;;) {
      options.signal?.throwIfAborted();
      const taken = await this.#redis.set(name, owner, 'PX', leaseMs, 'NX');
      if (taken === 'OK') return () => this.#release(name, owner);
      if (performance.now() >= deadline) throw new SessionLockTimeoutError(key, options.waitMs);
      await pause(this.#lockPollMs, options.signal);
    }
  }

  async #release(name: string, owner: string): Promise<void> {
    await this.#redis.eval(RELEASE_IF_OWNER, 1, name, owner);
  }
}

/** Waits `ms` (with ±50 % jitter so waiting instances do not poll in lockstep). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      ms * (0.5 + Math.random()),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
