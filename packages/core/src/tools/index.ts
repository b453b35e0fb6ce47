export * from './catalog-tools.js';
export { commissionText, formatCatalogResult } from './catalog-view.js';
export * from './definition.js';
export { errorTextForModel, type FieldNamer } from './error-text.js';
export { CATALOG_LIMIT_DEFAULT, TOOL_RESULT_LIMIT_MAX } from './limits.js';
export { formatMinorUnits } from './money.js';
export {
  type CatalogToolsOptions,
  TOOL_NAME_PATTERN,
  validateToolOptions,
} from './options.js';
export * from './search-catalog.js';
export * from './search-websites.js';
export { findStrictModeViolations } from './strict-mode.js';
export * from './update-collection.js';
