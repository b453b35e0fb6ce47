// The root of @catalogkit/core: what most applications use (at most 45 run-time names);
// everything else in one subpath per area.
export { CatalogClient, type CatalogDiscoveryOptions, type ClientSettings } from './client.js';
export type { CatalogClientOptions } from './client-options.js';
export {
  AbortError,
  ApiError,
  AuthenticationError,
  CatalogError,
  ConfigurationError,
  ConnectionError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  StoreUnavailableError,
  TimeoutError,
  ValidationError,
} from './errors/index.js';
export type { RestRequest } from './http/rest-call.js';
export type { RequestOptions } from './http/service-connection.js';
export type { CallObserver, CatalogInstrumentation } from './instrumentation.js';
export type { CatalogLogger } from './logger.js';
export type { CatalogLookupResponse, GetProductResponse } from './mcp/catalog-lookup.js';
export type { CatalogCallOptions, CatalogToolResponse } from './mcp/catalog-search.js';
export type {
  AuthTier,
  CatalogLookup,
  CatalogLookupResult,
  CatalogMeta,
  CatalogQuery,
  CatalogSearchResult,
  Clause,
  Collection,
  CollectionUpdate,
  Conversation,
  ConversationCreate,
  CountryCode,
  GetProductResult,
  Placement,
  Price,
  Product,
  ProductSelection,
  Turn,
  ValidationIssue,
  Variant,
  Website,
  WebsiteSearchParams,
  WebsiteSearchResponse,
} from './schemas/index.js';
export {
  type CatalogStore,
  type LockOptions,
  MemoryCatalogStore,
  type MemoryCatalogStoreOptions,
  type ReleaseLock,
  type StoredValue,
} from './store/index.js';
export {
  type AnyCatalogTool,
  type AnyCatalogToolDefinition,
  type CatalogTool,
  type CatalogToolContext,
  type CatalogToolDefinition,
  type CatalogToolName,
  type CatalogToolNames,
  type CatalogToolResult,
  type CatalogToolsOptions,
  createCatalogToolList,
  defineCatalogTool,
  type SearchCatalogInput,
  type SearchCatalogOutput,
  type SearchWebsitesInput,
  type SearchWebsitesOutput,
  type UpdateCollectionInput,
  type UpdateCollectionOutput,
} from './tools/index.js';
