// Every error class of @catalogkit/core/errors (the list is checked against that entry by
// packages/integration/test/public-surface.test.ts), so an application tells a failure (the
// `error` of the SDK's ToolCallError) without a direct dependency on @catalogkit/core; and
// what it needs to add its own tool and read results.
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
  finalizeRunBuyLinks,
  type RunBuyLinkOptions,
  type RunResultLike,
  toolOutputsOf,
} from './buy-links.js';
export {
  type CatalogFunctionTool,
  type CatalogToolOutput,
  catalogToolOutputOf,
  createCatalogTools,
  type OpenAIAgentsCatalogToolsOptions,
} from './create-catalog-tools.js';
