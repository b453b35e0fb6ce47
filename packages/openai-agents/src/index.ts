export {
  type CatalogFunctionTool,
  type CatalogToolOutput,
  catalogToolOutputOf,
  createCatalogTools,
  type OpenAIAgentsCatalogToolsOptions,
} from './create-catalog-tools.js';
