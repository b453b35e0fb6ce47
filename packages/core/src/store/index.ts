export {
  type CatalogStore,
  isCatalogStore,
  type LockOptions,
  type ReleaseLock,
  type SessionStore,
  type StoredValue,
} from './catalog-store.js';
export {
  MemoryCatalogStore,
  type MemoryCatalogStoreOptions,
  MemorySessionStore,
  type MemorySessionStoreOptions,
} from './memory-store.js';
export { type ReadThroughOptions, readThroughLocked } from './read-through.js';
