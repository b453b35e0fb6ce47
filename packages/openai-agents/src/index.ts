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
  type CatalogFunctionTool,
  type CatalogToolOutput,
  catalogToolOutputOf,
  createCatalogTools,
  type OpenAIAgentsCatalogToolsOptions,
} from './create-catalog-tools.js';
