// Every error class of @catalogkit/core/errors (the list is checked against that entry by
// packages/integration/test/public-surface.test.ts), so an application narrows a failure
// artifact's `error` without a direct dependency on @catalogkit/core; and what it needs to add
// its own tool and read results.
export {
  AbortError,
  ApiError,
  AuthenticationError,
  CatalogError,
  CatalogToolError,
  ConfigurationError,
  ConnectionError,
  McpError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  RepeatedUpdateError,
  RequestValidationError,
  ResponseTooLargeError,
  ServerError,
  SessionLockTimeoutError,
  StoreUnavailableError,
  TimeoutError,
  TokenMintError,
  ValidationError,
} from '@catalogkit/core/errors';
export {
  type CatalogToolContext,
  type CatalogToolDefinition,
  type CatalogToolNames,
  type CatalogToolResult,
  defineCatalogTool,
  type SearchCatalogInput,
  type SearchCatalogOutput,
  type SearchWebsitesInput,
  type SearchWebsitesOutput,
  type UpdateCollectionInput,
  type UpdateCollectionOutput,
} from '@catalogkit/core/tools';
export {
  type BuyLinkMessageOptions,
  type FinalizedAIMessage,
  finalizeAIMessageBuyLinks,
  resolveBuyLinkChunks,
  type StreamedMessage,
  toolArtifactsOf,
} from './buy-links.js';
export type {
  BuiltInArtifacts,
  CatalogLangChainTool,
  CatalogLangChainTools,
  CatalogToolFailure,
  CatalogToolMessage,
  LookupArtifacts,
  ToolNameOf,
} from './catalog-tool-types.js';
export { CatalogToolkit } from './catalog-toolkit.js';
export {
  type CatalogToolArtifact,
  createCatalogTools,
  isCatalogToolFailure,
  type LangChainCatalogToolsOptions,
} from './create-catalog-tools.js';
