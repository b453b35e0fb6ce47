// Every error class of @catalogkit/core/errors (the list is checked against that entry by
// packages/integration/test/public-surface.test.ts), so an application narrows a failure's
// `cause` without a direct dependency on @catalogkit/core; and what it needs to add its own
// tool and read results.
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
  type BuyLinkResultOptions,
  type FinalizedUIMessages,
  finalizeResultBuyLinks,
  finalizeUIMessageBuyLinks,
  type ResultWithSteps,
  toolOutputsOf,
  type UIMessageLike,
} from './buy-links-results.js';
export { type BuyLinksTransformOptions, resolveBuyLinksTransform } from './buy-links-transform.js';
export type {
  BuiltInToolTypes,
  CatalogToolSet,
  CatalogToolTypes,
  CustomToolTypes,
  LookupToolName,
  LookupToolTypes,
  ToolNameOf,
} from './catalog-tool-set.js';
export { type AiSdkCatalogToolsOptions, createCatalogTools } from './create-catalog-tools.js';
export { CatalogToolCallError } from './tool-call-error.js';
