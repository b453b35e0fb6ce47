// `@catalogkit/core/tools`: the framework-neutral agent tools the adapters wrap.
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
  updateCollectionRequest,
} from './built-in/update-collection.js';
export { type BuyLinkMode, buyLinkReference } from './buy-link-reference.js';
export {
  type AnyCatalogTool,
  type CatalogTool,
  createCatalogToolList,
} from './catalog-tools.js';
export { formatCatalogResult, type SearchCatalogOutput } from './catalog-view.js';
export {
  type AnyCatalogToolDefinition,
  CATALOG_TOOL_NAMES,
  type CatalogToolClient,
  type CatalogToolContext,
  type CatalogToolDefinition,
  type CatalogToolName,
  type CatalogToolNames,
  type CatalogToolResult,
  defineCatalogTool,
  LOOKUP_TOOL_NAMES,
  TOOL_NAME_PATTERN,
} from './definition.js';
export { errorTextForModel } from './error-text.js';
export { formatMinorUnits, minorUnitsText } from './money.js';
export type { CatalogToolsOptions } from './options.js';
export { type ProductOffer, productOffers } from './product-offers.js';
