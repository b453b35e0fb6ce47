import { isRecord } from '../is-record.js';

/**
 * The built-in tools whose results are catalog results (products with buy links): the one
 * list of trusted buy-link sources (`@catalogkit/links` and the adapters default to it).
 */
export const CATALOG_RESULT_TOOLS = ['search_catalog', 'lookup_catalog', 'get_product'] as const;

/**
 * The products of a catalog result: its `products[]` (search, lookup) or its one `product`
 * (get_product); undefined when it is neither.
 */
export function catalogResultProducts(result: unknown): unknown[] | undefined {
  if (!isRecord(result)) return undefined;
  if (Array.isArray(result.products)) return result.products;
  return isRecord(result.product) ? [result.product] : undefined;
}
