/*
 * The root of @catalogkit/core: what most users need, small enough to learn at once.
 *
 * - `CatalogClient`, its options, and the types its methods take and return.
 * - The agent tools' two entry points: `createCatalogToolList` (the built-ins bound to a
 *   client) and `defineCatalogTool` (your own tool), with the types that name tools and
 *   their results.
 * - The errors the client's calls throw, for `catch` and `Error.is()`.
 *
 * Everything else lives in one subpath per area, each with its full list (the root names of
 * an area are in its subpath too, so one import line per area always works):
 * - `@catalogkit/core/errors`: every error class, also those of tokens, sessions and tools.
 * - `@catalogkit/core/tools`: formatters, model error text, the strict-mode check, names.
 * - `@catalogkit/core/conversations`: token manager, chat session, minter, stores (a
 *   browser chat imports only this and the client).
 * - `@catalogkit/core/payment`: machine payments (budget, payer, price readers).
 * - `@catalogkit/core/schemas`: the zod schemas of the wire.
 *
 * Rule: a name joins the root only if most applications of core use it; a name only some
 * use (chat pages, payments, adapters, link guards) stays in its subpath. The root holds at
 * most 45 run-time names (packages/integration/test/public-surface.test.ts counts them).
 */
export { CatalogClient } from './client.js';
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
export type { CatalogSearchOptions, CatalogSearchResponse } from './mcp/catalog-search.js';
export type {
  AuthTier,
  CatalogMeta,
  CatalogQuery,
  CatalogSearchResult,
  Clause,
  Collection,
  CollectionUpdate,
  Conversation,
  ConversationCreate,
  CountryCode,
  Placement,
  Price,
  Product,
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
