import { z } from 'zod/v4';
import type { CatalogQuery, CatalogToolResult, Price } from '../../src/index.js';
import { defineCatalogTool, formatMinorUnits } from '../../src/tools/index.js';

/*
 * Custom tools as an application would write them, shared by the adapters' tests (imported by
 * path), so both frameworks prove the `tools` option with the same definitions.
 */

/** One offer of `compare_prices`, cheapest first. */
export interface PricedOffer {
  productId: string;
  title: string;
  price: Price;
  seller: string | undefined;
  /** The buy link exactly as the service sent it. */
  url: string | undefined;
}

/** What `compare_prices` returns: the catalog query it sent and the offers, cheapest first. */
export type ComparePricesOutput = CatalogToolResult<CatalogQuery, PricedOffer[]>;

/** What the model reads from `compare_prices`: one line per offer, the buy link as sent. */
export function offersView({ response: offers }: ComparePricesOutput): string {
  return offers
    .map((offer) =>
      [offer.title, formatMinorUnits(offer.price), offer.seller, offer.url].join(' | '),
    )
    .join('\n');
}

/** An application's own tool, as a user of the adapter would write it. */
export const comparePrices = defineCatalogTool({
  name: 'compare_prices',
  description: (names) =>
    `List the offers for a product from cheapest to dearest. ${names.search_catalog} gives full product details.`,
  inputSchema: z.strictObject({
    query: z.string().describe('The product, e.g. "rain jacket".'),
    limit: z.int().min(1).max(10).nullable().describe('Products to compare; null for 5.'),
  }),
  mutates: false,
  async execute(input, { client, signal }): Promise<ComparePricesOutput> {
    const request = { query: input.query, pagination: { limit: input.limit ?? 5 } };
    const { result } = await client.catalog.search(request, { signal });
    const offers: PricedOffer[] = result.products.flatMap((product) =>
      product.variants.flatMap((variant) =>
        variant.price
          ? [
              {
                productId: product.id,
                title: product.title,
                price: variant.price,
                seller: variant.seller?.name,
                url: variant.url,
              },
            ]
          : [],
      ),
    );
    return { request, response: offers.sort((a, b) => a.price.amount - b.price.amount) };
  },
  toModelOutput: offersView,
});

/** A tool of the application that changes data: it renames a collection to "Archived". */
export const archiveCollection = defineCatalogTool({
  name: 'archive_collection',
  description: () => 'Archive one of the user’s collections. Only when the user asked for it.',
  inputSchema: z.strictObject({ collection_id: z.string().describe('The collection id.') }),
  mutates: true,
  async execute(input, { client, signal }) {
    const request = { collectionId: input.collection_id, update: { name: 'Archived' } };
    const response = await client.collections.update(request.collectionId, request.update, {
      signal,
    });
    return { request, response };
  },
  toModelOutput: ({ response }) => `Archived ${response.collection_id}`,
});

/** A tool whose schema OpenAI strict mode refuses (an optional field). */
export const looseTool = defineCatalogTool({
  name: 'loose_lookup',
  description: () => 'Looks something up.',
  inputSchema: z.strictObject({ query: z.string().optional().describe('What.') }),
  mutates: false,
  execute: async (input) => ({ request: input, response: input.query ?? '' }),
  toModelOutput: ({ response }) => response,
});
