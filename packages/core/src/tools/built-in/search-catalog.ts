import type { z } from 'zod/v4';
import {
  AFFILIATE_PLACEMENT,
  CatalogPaginationSchema,
  type CatalogQuery,
  CatalogQuerySchema,
} from '../../schemas/catalog.js';
import { schema } from '../../schemas/define.js';
import { WEBSITE_SEARCH_LIMITS } from '../../schemas/websites.js';
import {
  catalogViewLegend,
  formatCatalogResult,
  type SearchCatalogOutput,
} from '../catalog-view.js';
import { defineCatalogTool } from '../definition.js';
import {
  choice,
  exactObject,
  integerText,
  list,
  listOf,
  modelInput,
  oneOf,
  text,
  wholeNumber,
} from '../model-input.js';

/** Catalog page size when neither the model nor the options give one (UCP's default is 10). */
const CATALOG_LIMIT_DEFAULT = 5;

const PLACEMENTS = [AFFILIATE_PLACEMENT] as const;

/** Arguments the model gives `search_catalog`; null, or left out, means "not given". */
export const SearchCatalogInputSchema = /* @__PURE__ */ schema(() => {
  // The largest page a tool asks for is the website search's: 20 products is a long read already.
  const max = WEBSITE_SEARCH_LIMITS.limitMax;
  return modelInput(
    exactObject({
      query: text(
        'what the shopper wants, in plain words',
        CatalogQuerySchema.shape.query,
      ).describe('What the shopper wants, in plain words, e.g. "waterproof trail running shoes".'),
      limit: wholeNumber(1, max, 'or null for the default')
        .nullable()
        .describe(`How many products to return, 1 to ${max}; null for the default.`),
      cursor: text(
        'the cursor printed after a previous page, or null for the first page',
        CatalogPaginationSchema.shape.cursor,
      )
        .nullable()
        .describe(
          'The cursor printed after a previous page of the same query, to get the next page; null for the first page.',
        ),
      placements: list(choice(PLACEMENTS, 'or null for the default'), 'placements')
        .nullable()
        .describe(
          '["affiliate"] to get the commission on each product (needs an API key); null for the default.',
        ),
    }),
    { limit: integerText, placements: listOf(oneOf(PLACEMENTS)) },
  );
});
/** The input of `search_catalog` once validated: every field present, `null` meaning "not given". */
export type SearchCatalogInput = z.output<typeof SearchCatalogInputSchema>;

/** `search_catalog`: products across retailers, with buy links. */
export const searchCatalogTool = /* @__PURE__ */ defineCatalogTool<
  SearchCatalogInput,
  SearchCatalogOutput,
  'search_catalog'
>({
  name: 'search_catalog',
  description: (names, buyLinks) =>
    [
      'Search the product catalog across many retailers. Use it whenever the shopper wants to find, compare or buy a product.',
      "Each product comes with its product_id and brand_id (and category ids); each offer with its option, price, availability, retailer and the retailer's website_id, commission when asked for, and buy link.",
      catalogViewLegend(buyLinks),
      `Product, brand, category and website ids go into ${names.update_collection} clauses; ${names.search_websites} finds other retailers and their commission rates.`,
      'When more results exist, the output ends with a cursor: pass it with the same query to get the next page.',
    ].join(' '),
  inputSchema: SearchCatalogInputSchema,
  mutates: false,
  async execute(input, { client, defaults, signal }) {
    const { cursor } = input;
    const placements = input.placements ?? defaults.placements;
    const request: CatalogQuery = {
      query: input.query,
      pagination: {
        limit: input.limit ?? defaults.limit ?? CATALOG_LIMIT_DEFAULT,
        ...(cursor === null ? {} : { cursor }),
      },
      ...(placements?.length ? { placements: [...placements] } : {}),
    };
    const { result, tier } = await client.catalog.search(request, signal ? { signal } : {});
    return { request, response: result, tier };
  },
  toModelOutput: formatCatalogResult,
  // The client names fields by their place in `catalog`; the model knows them flat.
  modelFieldName: (wirePath) => wirePath.replace(/^catalog\.(pagination\.)?/, ''),
});
