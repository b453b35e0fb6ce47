export { type AiSdkCatalogToolsOptions, createCatalogTools } from './create-catalog-tools.js';
export { CatalogToolCallError } from './tool-call-error.js';
