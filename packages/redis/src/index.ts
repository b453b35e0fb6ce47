export type {
  IoredisClient,
  NodeRedisClient,
  NodeRedisCommandOptions,
  RedisClient,
  UpstashRedisClient,
} from './clients.js';
export {
  createRedisStore,
  RedisStore,
  type RedisStoreOptions,
} from './redis-store.js';
