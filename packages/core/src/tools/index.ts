/*
 * `@catalogkit/core/tools`: the framework-neutral agent tools. `createCatalogToolList` binds
 * the built-ins (search_catalog, search_websites, update_collection) and your own
 * `defineCatalogTool` definitions to a client; the formatters and `errorTextForModel` give a
 * custom tool the built-ins' model view; the types name tools, results and options.
 * The adapters (`@catalogkit/ai-sdk`, `/langchain`, `/openai-agents`, `/mcp`) wrap this.
 */
export type { GetProductInput, GetProductOutput } from './built-in/get-product.js';
export type { LookupCatalogInput, LookupCatalogOutput } from './built-in/lookup-catalog.js';
export type { SearchCatalogInput } from './built-in/search-catalog.js';
export {
  formatWebsites,
  type SearchWebsitesInput,
  type SearchWebsitesOutput,
} from './built-in/search-websites.js';
export {
  formatCollection,
  type UpdateCollectionInput,
  type UpdateCollectionOutput,
  type UpdateCollectionRequest,
  updateCollectionRequest,
} from './built-in/update-collection.js';
export { type BuyLinkMode, buyLinkReference } from './buy-link-reference.js';
export { CATALOG_RESULT_TOOLS, catalogResultProducts } from './catalog-results.js';
export {
  type AnyCatalogTool,
  type BoundCatalogTool,
  type CatalogTool,
  createCatalogToolList,
} from './catalog-tools.js';
export {
  catalogViewLegend,
  formatCatalogResult,
  type SearchCatalogOutput,
} from './catalog-view.js';
export {
  type AnyCatalogToolDefinition,
  CATALOG_TOOL_NAMES,
  type CatalogToolClient,
  type CatalogToolContext,
  type CatalogToolDefaults,
  type CatalogToolDefinition,
  type CatalogToolName,
  type CatalogToolNames,
  type CatalogViewSettings,
  defineCatalogTool,
  TOOL_NAME_PATTERN,
} from './definition.js';
export { errorTextForModel, type FieldNamer } from './error-text.js';
export { formatMinorUnits, minorUnitsText } from './money.js';
export { type CatalogToolsOptions, LOOKUP_TOOL_NAMES } from './options.js';
export { type ProductOffer, productOffers } from './product-offers.js';
export type { CatalogToolResult } from './result.js';
export { findStrictModeViolations } from './strict-mode.js';
