import type { CatalogQuery } from '../../schemas/catalog.js';
import {
  catalogViewLegend,
  formatCatalogResult,
  type SearchCatalogOutput,
} from '../catalog-view.js';
import { defineCatalogTool } from '../definition.js';
import { type SearchCatalogInput, SearchCatalogInputSchema } from '../input/search-catalog.js';
import { CATALOG_LIMIT_DEFAULT } from '../limits.js';

export type { SearchCatalogInput };

function buildQuery(
  input: SearchCatalogInput,
  defaults: { limit?: number; placements?: string[] },
): CatalogQuery {
  const { cursor } = input;
  const placements = input.placements ?? defaults.placements;
  return {
    query: input.query,
    pagination: {
      limit: input.limit ?? defaults.limit ?? CATALOG_LIMIT_DEFAULT,
      ...(cursor === null ? {} : { cursor }),
    },
    ...(placements?.length ? { placements } : {}),
  };
}

/** `search_catalog`: products across retailers, with buy links. */
export const searchCatalogTool = /* @__PURE__ */ defineCatalogTool<
  SearchCatalogInput,
  SearchCatalogOutput,
  'search_catalog'
>({
  name: 'search_catalog',
  description: (names, view) =>
    [
      'Search the product catalog across many retailers. Use it whenever the shopper wants to find, compare or buy a product.',
      "Each product comes with its product_id and brand_id (and category ids); each offer with its option, price, availability, retailer and the retailer's website_id, commission when asked for, and buy link.",
      catalogViewLegend(view?.buyLinks ?? 'reference'),
      `Product, brand, category and website ids go into ${names.update_collection} clauses; ${names.search_websites} finds other retailers and their commission rates.`,
      'When more results exist, the output ends with a cursor: pass it with the same query to get the next page.',
    ].join(' '),
  inputSchema: SearchCatalogInputSchema,
  mutates: false,
  async execute(input, { client, defaults, signal }) {
    const request = buildQuery(input, defaults);
    const { result, tier } = await client.catalog.search(request, signal ? { signal } : {});
    return { request, response: result, tier };
  },
  toModelOutput: (output, view) => formatCatalogResult(output, view?.buyLinks),
  // The client names fields by their place in `catalog`; the model knows them flat.
  modelFieldName: (wirePath) => wirePath.replace(/^catalog\.(pagination\.)?/, ''),
});
