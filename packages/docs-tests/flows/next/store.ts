// store.ts: imported by every route of every instance.
import { createRedisStore } from '@catalogkit/redis';
import { Redis } from 'ioredis';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  lazyConnect: true, // no I/O at import (`next build` needs no Redis): the store's first command connects
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
});
// Without an `error` listener ioredis prints "[ioredis] Unhandled error event" on every reconnect;
// failures reach the caller as a StoreUnavailableError instead.
redis.on('error', () => {});
export const store = createRedisStore(redis);
