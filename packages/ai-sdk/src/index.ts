// What an application needs to add its own tool and read results without a direct
// dependency on @catalogkit/core.
export {
  CatalogError,
  type CatalogToolContext,
  type CatalogToolDefinition,
  type CatalogToolNames,
  defineCatalogTool,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
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
export { type AiSdkCatalogToolsOptions, createCatalogTools } from './create-catalog-tools.js';
export { CatalogToolCallError } from './tool-call-error.js';
