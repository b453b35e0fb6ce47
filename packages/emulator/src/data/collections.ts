import { sequentialId } from '../ids.js';
import { USER_IDS } from '../options.js';
import type { CatalogData } from './index.js';

/** A clause as stored and returned. */
export interface StoredClause {
  clause_id: string;
  brand_ids: string[];
  website_ids: string[];
  category_ids: string[];
  product_ids: string[];
}

/** A collection as stored; returned as is by the update operation. */
export interface StoredCollection {
  collection_id: string;
  name: string;
  description: string;
  clauses: StoredClause[];
  created_at: string;
  updated_at: string;
  user_id: string;
}

/** Seeded collections are dated in the past so that any update visibly moves `updated_at`. */
const SEEDED_AT = '2025-05-01T09:30:00.000Z';

const clause = (id: number, selectors: Partial<Omit<StoredClause, 'clause_id'>>): StoredClause => ({
  clause_id: sequentialId('cl_', id),
  brand_ids: [],
  website_ids: [],
  category_ids: [],
  product_ids: [],
  ...selectors,
});

const collection = (
  id: string,
  name: string,
  description: string,
  userId: string,
  clauses: StoredClause[],
): StoredCollection => ({
  collection_id: id,
  name,
  description,
  clauses,
  created_at: SEEDED_AT,
  updated_at: SEEDED_AT,
  user_id: userId,
});

/**
 * The demo collections: "Summer" (`col_summer`) and two more for the `valid` key's user,
 * and one for `otherUser` that `valid` must never see. Clause ids are `cl_0001`...
 */
export function seedCollections(data: CatalogData): StoredCollection[] {
  const shoeBrands = data.brands.filter((brand) => brand.vertical === 'footwear').map((b) => b.id);
  const firstWebsites = data.websites.slice(0, 3).map((website) => website.id);
  return [
    collection('col_summer', 'Summer', 'Warm-weather picks for the season.', USER_IDS.valid, [
      clause(1, { category_ids: ['sandals', 'swimwear'] }),
    ]),
    collection('col_running', 'Running gear', 'Shoes and apparel for runners.', USER_IDS.valid, [
      clause(2, {
        category_ids: ['running-shoes', 'trail-running-shoes'],
        brand_ids: shoeBrands.slice(0, 3),
      }),
      clause(3, { website_ids: firstWebsites }),
    ]),
    collection('col_gifts', 'Gifts', '', USER_IDS.valid, []),
    collection('col_other_private', 'Private picks', 'Owned by another user.', USER_IDS.otherUser, [
      clause(4, { product_ids: data.products.slice(0, 2).map((product) => product.id) }),
    ]),
  ];
}
