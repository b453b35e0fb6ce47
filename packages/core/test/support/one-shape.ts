import { expect } from 'vitest';
import type {
  CatalogClient,
  SearchCatalogInput,
  SearchWebsitesInput,
  UpdateCollectionInput,
} from '../../src/index.js';

/*
 * The one output shape, proven the same way in every adapter's framework-level suite (imported
 * by path, like custom-tools.ts): a real framework run against the emulator calls each
 * built-in with these inputs, and what the application receives must be exactly
 * `{ request, response, tier? }`, where `request` is what core sends for the input (defaults
 * applied) and `response` is the service's own answer to that request, asked again here with
 * a plain client: nothing added, nothing left out, nothing rewritten.
 */

/** What the model sends to each built-in in the one-shape runs. */
export const SHAPE_INPUTS = {
  search_catalog: {
    query: 'trail running shoes',
    limit: 2,
    cursor: null,
    placements: null,
  } satisfies SearchCatalogInput,
  search_websites: {
    query: 'outdoor',
    limit: 2,
    category_ids: null,
    country: 'GB',
  } satisfies SearchWebsitesInput,
  update_collection: {
    collection_id: 'col_summer',
    name: 'Summer picks',
    description: null,
    add_clauses: null,
    replace_clauses: null,
    remove_clause_ids: null,
  } satisfies UpdateCollectionInput,
};

/** The requests core sends for {@link SHAPE_INPUTS}. */
const REQUESTS = {
  search_catalog: { query: 'trail running shoes', pagination: { limit: 2 } },
  search_websites: { query: 'outdoor', limit: 2, country: 'GB' as const },
  update_collection: { collectionId: 'col_summer', update: { name: 'Summer picks' } },
};

/** The three results an application receives, by the built-in's name. */
export interface ReceivedResults {
  search_catalog: unknown;
  search_websites: unknown;
  update_collection: unknown;
}

/**
 * Asserts that each received result is exactly the one shape. `client` asks the emulator
 * the same searches again (its data is fixed, so the answers are the same); `collectionNow`
 * is the collection as the emulator holds it after the update, which its answer was.
 */
export async function expectOneShape(
  received: ReceivedResults,
  client: Pick<CatalogClient, 'catalog' | 'websites'>,
  collectionNow: unknown,
): Promise<void> {
  const catalog = await client.catalog.search(REQUESTS.search_catalog);
  const websites = await client.websites.search(REQUESTS.search_websites);
  expect(received.search_catalog).toStrictEqual({
    request: REQUESTS.search_catalog,
    response: catalog.result,
    tier: catalog.tier,
  });
  expect(received.search_websites).toStrictEqual({
    request: REQUESTS.search_websites,
    response: websites,
  });
  expect(received.update_collection).toStrictEqual({
    request: REQUESTS.update_collection,
    response: collectionNow,
  });
  // The searches found something, so the comparison above compared real answers.
  expect(catalog.result.products.length).toBeGreaterThan(0);
  expect(websites.websites.length).toBeGreaterThan(0);
}
