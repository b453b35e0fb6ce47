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
  ToolNameOf,
} from './catalog-tool-set.js';
export { type AiSdkCatalogToolsOptions, createCatalogTools } from './create-catalog-tools.js';
export { CatalogToolCallError } from './tool-call-error.js';
