export type {
  IoredisClient,
  NodeRedisClient,
  NodeRedisCommandOptions,
  RedisClient,
  UpstashRedisClient,
} from './clients.js';
export {
  createRedisStore,
  RedisSessionStore,
  type RedisSessionStoreOptions,
  RedisStore,
  type RedisStoreOptions,
} from './redis-store.js';
