import type { CatalogData } from '../data/index.js';
import { searchCatalog } from '../search/catalog-search.js';

/** A canned but relevant assistant reply: the best catalog match for the shopper's words. */
export function replyTo(data: CatalogData, message: string): string {
  const [best] = searchCatalog(data, message, 0, 1).products;
  if (!best)
    return `I could not find anything for "${message}" yet. Could you describe it differently?`;
  return `For "${message}", have a look at the ${best.title}.`;
}
