/*
 * The root of @catalogkit/core: the client, the tools' two entry points and the errors the
 * client throws. Everything else lives in one subpath per area (errors, tools,
 * conversations, payment, schemas), each with its full list. A name joins the root only if
 * most applications use it; at most 45 run-time names (public-surface.test.ts counts them).
 */
export { CatalogClient, type CatalogDiscoveryOptions } from './client.js';
export type { ClientSettings } from './client-connection.js';
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
export type { RestRequest, RestResponse } from './http/rest-call.js';
export type { RequestOptions } from './http/service-connection.js';
export type { CallObserver, CatalogInstrumentation } from './instrumentation.js';
export type { CatalogLogger, LogContext } from './logger.js';
export type { CatalogLookupResponse, GetProductResponse } from './mcp/catalog-lookup.js';
export type {
  CatalogCallOptions,
  CatalogSearchOptions,
  CatalogSearchResponse,
  CatalogToolResponse,
} from './mcp/catalog-search.js';
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
// The store all state shared across instances lives in (README "Deploying"): pass one to
// the client and the tools; the memory store is the default.
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
