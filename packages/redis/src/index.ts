export { RedisSessionStore, type RedisSessionStoreOptions } from './redis-session-store.js';
