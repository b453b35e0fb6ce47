// What an application needs to add its own tool, read results and narrow a failure's
// `cause` without a direct dependency on @catalogkit/core.
export {
  AbortError,
  ApiError,
  AuthenticationError,
  CatalogError,
  type CatalogToolContext,
  type CatalogToolDefinition,
  CatalogToolError,
  type CatalogToolNames,
  ConfigurationError,
  ConnectionError,
  defineCatalogTool,
  McpError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  RepeatedUpdateError,
  RequestValidationError,
  ResponseTooLargeError,
  type SearchCatalogInput,
  type SearchCatalogOutput,
  type SearchWebsitesInput,
  type SearchWebsitesOutput,
  ServerError,
  TimeoutError,
  type UpdateCollectionInput,
  type UpdateCollectionOutput,
  ValidationError,
} from '@catalogkit/core';
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
  ToolNameOf,
} from './catalog-tool-types.js';
export { CatalogToolkit } from './catalog-toolkit.js';
export {
  type CatalogToolArtifact,
  createCatalogTools,
  isCatalogToolFailure,
  type LangChainCatalogToolsOptions,
} from './create-catalog-tools.js';
