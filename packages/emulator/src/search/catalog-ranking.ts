import type { CatalogData } from '../data/index.js';
import { catalogIndex } from './catalog-index.js';

/** Product positions in rank order, and whether they match only some of the words. */
export interface Ranking {
  order: Int32Array;
  partial: boolean;
}

// Sort keys pack (words matched, weight, review count, position) into one float so that a
// native typed-array sort ranks them: this runs on every catalog request.
const POSITION_SLOTS = 10_000;
const COUNT_SLOTS = 10_000;
const WEIGHT_SLOTS = 1_000;

function sortKey(matched: number, weight: number, reviews: number, position: number): number {
  const quality = (matched * WEIGHT_SLOTS + Math.min(weight, WEIGHT_SLOTS - 1)) * COUNT_SLOTS;
  const popularity = Math.min(reviews, COUNT_SLOTS - 1);
  // Lower positions first among equals: store the complement.
  return (quality + popularity) * POSITION_SLOTS + (POSITION_SLOTS - 1 - position);
}

/**
 * Ranks products by how many query words they match (all of them, or if none does, the
 * best partial matches), then by where they match (title > category = brand), then by
 * review count.
 */
export function rankProducts(data: CatalogData, tokens: readonly string[]): Ranking {
  if (data.products.length > POSITION_SLOTS)
    throw new RangeError('too many products for the sort key');
  const index = catalogIndex(data);
  const matched = new Uint8Array(data.products.length);
  const weight = new Uint16Array(data.products.length);
  const touched: number[] = [];
  for (const token of new Set(tokens)) {
    for (const posting of index.get(token) ?? []) {
      if (matched[posting.product] === 0) touched.push(posting.product);
      matched[posting.product] = (matched[posting.product] ?? 0) + 1;
      weight[posting.product] = (weight[posting.product] ?? 0) + posting.weight;
    }
  }
  const complete = touched.filter((position) => matched[position] === tokens.length);
  const partial = complete.length === 0 && touched.length > 0;
  const candidates = partial ? touched : complete;
  const keys = new Float64Array(candidates.length);
  candidates.forEach((position, i) => {
    const reviews = data.products[position]?.rating.count ?? 0;
    keys[i] = sortKey(matched[position] ?? 0, weight[position] ?? 0, reviews, position);
  });
  keys.sort();
  const order = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[keys.length - 1 - i] as number;
    order[i] = POSITION_SLOTS - 1 - (key % POSITION_SLOTS);
  }
  return { order, partial };
}
