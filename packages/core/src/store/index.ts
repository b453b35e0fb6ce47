export type { CatalogStore, LockOptions, ReleaseLock, StoredValue } from './catalog-store.js';
export { MemoryCatalogStore, type MemoryCatalogStoreOptions } from './memory-store.js';
