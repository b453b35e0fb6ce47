/**
 * The shared store of a web chat instance: `createRedisStore` (`@catalogkit/redis`) on an
 * ioredis connection to `REDIS_URL`.
 */
import type { CatalogLogger, CatalogStore } from '@catalogkit/core';
import { createRedisStore } from '@catalogkit/redis';
import { Redis } from 'ioredis';

/** A connected store and how to let go of its connection. */
export interface SharedStore {
  store: CatalogStore;
  close(): Promise<void>;
}

/** `redis://host:port/db` without the user name or password, for messages and logs. */
export function redisLabel(url: string): string {
  try {
    const { protocol, host, pathname } = new URL(url);
    return `${protocol}//${host}${pathname === '/' ? '' : pathname}`;
  } catch {
    return 'REDIS_URL (not a URL)';
  }
}

/**
 * Connects to Redis at `url` (fails after 5 s when it does not answer). While Redis is out
 * of reach, commands fail at once instead of queueing, so a request answers 503 (and an
 * approval is refused) rather than hang; ioredis reconnects by itself.
 */
export async function connectRedisStore(url: string, logger?: CatalogLogger): Promise<SharedStore> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    // The options @catalogkit/redis recommends: a command that failed is never sent again
    // later (a late write could apply a claim the caller was told had failed).
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    // Once per outage, not once per reconnect attempt.
    if (reported) return;
    reported = true;
    logger?.error?.('redis connection failed', { redis: redisLabel(url), error: error.message });
  });
  redis.on('ready', () => {
    reported = false;
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Could not connect to ${redisLabel(url)}: ${(error as Error).message}`);
  }
  return {
    store: createRedisStore(redis),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
