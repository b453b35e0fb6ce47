export { CatalogToolkit } from './catalog-toolkit.js';
export {
  type CatalogToolArtifact,
  type CatalogToolFailure,
  createCatalogTools,
  isCatalogToolFailure,
} from './create-catalog-tools.js';
