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
  type BuyLinkMessageOptions,
  type FinalizedAIMessage,
  finalizeAIMessageBuyLinks,
  resolveBuyLinkChunks,
  type StreamedMessage,
  toolArtifactsOf,
} from './buy-links.js';
export { CatalogToolkit } from './catalog-toolkit.js';
export {
  type CatalogToolArtifact,
  type CatalogToolFailure,
  createCatalogTools,
  isCatalogToolFailure,
  type LangChainCatalogToolsOptions,
} from './create-catalog-tools.js';
