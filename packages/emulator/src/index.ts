export {
  createEmulator,
  type EmulatorApp,
  type EmulatorHandles,
  MCP_PREFIX,
  REST_PREFIX,
} from './app.js';
export type { StoredClause, StoredCollection } from './data/collections.js';
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
export {
  type EmulatorPaymentOptions,
  PAYMENT_REALM,
  type PaymentDesk,
  type PaymentRecord,
  TEST_PAYMENT_METHOD,
} from './payment/index.js';
export { type RunningEmulator, type StartEmulatorOptions, startEmulator } from './start.js';
export type {
  EmulatorState,
  StoredConversation,
  StoredToken,
  StoredTurn,
} from './state.js';
export type { RequestStats } from './stats.js';
