export {
  type SearchCatalogInput,
  searchCatalogTool,
} from './built-in/search-catalog.js';
export {
  formatWebsites,
  type SearchWebsitesInput,
  type SearchWebsitesOutput,
  searchWebsitesTool,
} from './built-in/search-websites.js';
export {
  formatCollection,
  type UpdateCollectionInput,
  type UpdateCollectionOutput,
  updateCollectionTool,
} from './built-in/update-collection.js';
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
export { formatMinorUnits } from './money.js';
export type { CatalogToolsOptions } from './options.js';
export { findStrictModeViolations } from './strict-mode.js';
