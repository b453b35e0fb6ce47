export {
  type CatalogStore,
  isCatalogStore,
  type LockOptions,
  type ReleaseLock,
  type StoredValue,
} from './catalog-store.js';
export {
  MemoryCatalogStore,
  type MemoryCatalogStoreOptions,
} from './memory-store.js';
export { type ReadThroughOptions, readThroughLocked } from './read-through.js';
