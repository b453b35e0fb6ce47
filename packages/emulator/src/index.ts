export {
  createEmulator,
  type EmulatorApp,
  type EmulatorHandles,
  MCP_PREFIX,
  REST_PREFIX,
} from './app.js';
export type {
  BrandRecord,
  CategoryDefinition,
  ProductRecord,
  VariantRecord,
  WebsiteRecord,
} from './data/index.js';
export { type CatalogData, catalogData, DEFAULT_SEED } from './data/index.js';
export type { FaultController, FaultRule } from './faults.js';
export { AUTH_TIER_HEADER } from './mcp/route.js';
export * from './options.js';
export { type RunningEmulator, type StartEmulatorOptions, startEmulator } from './start.js';
export type {
  EmulatorState,
  StoredClause,
  StoredCollection,
  StoredConversation,
  StoredToken,
  StoredTurn,
} from './state.js';
export type { RequestStats } from './stats.js';
