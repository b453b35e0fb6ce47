import type { z } from 'zod/v4';
import {
  CATALOG_LOOKUP_MAX,
  type CatalogLookup,
  type CatalogLookupResult,
  LOOKUP_CATALOG_TOOL,
  PageUrlSchema,
} from '../../schemas/catalog-lookup.js';
import { schema } from '../../schemas/define.js';
import { catalogViewLegend, countOf, noticeLines, productSection } from '../catalog-view.js';
import { type CatalogToolResult, defineCatalogTool } from '../definition.js';
import { exactObject, list, listOf, modelInput, text } from '../model-input.js';

/** Arguments the model gives `lookup_catalog`: product ids and/or retailer page URLs. */
export const LookupCatalogInputSchema = /* @__PURE__ */ schema(() =>
  modelInput(
    exactObject({
      product_ids: list(text('a product_id as printed'), 'product ids')
        .nullable()
        .describe('product_id values exactly as printed by a catalog tool; null for none.'),
      urls: list(text('a retailer product page URL', PageUrlSchema), 'URLs')
        .nullable()
        .describe('Product page URLs the shopper gave (http or https); null for none.'),
    })
      .refine(({ product_ids, urls }) => countOfLists(product_ids, urls) > 0, {
        error: 'give at least one product_id in product_ids or one URL in urls',
      })
      .refine(({ product_ids, urls }) => countOfLists(product_ids, urls) <= CATALOG_LOOKUP_MAX, {
        error: `give at most ${CATALOG_LOOKUP_MAX} product_ids and urls together`,
      }),
    { product_ids: listOf(), urls: listOf() },
  ),
);

/** How many ids and URLs together (counted in the model's fields, so errors name them). */
const countOfLists = (...lists: (readonly string[] | null)[]) =>
  lists.reduce((sum, list) => sum + (list?.length ?? 0), 0);

/** The input of `lookup_catalog` once validated; `null` means "not given". */
export type LookupCatalogInput = z.output<typeof LookupCatalogInputSchema>;

/** What the application gets from `lookup_catalog`: the lookup sent, the answer, the tier. */
export type LookupCatalogOutput = Required<CatalogToolResult<CatalogLookup, CatalogLookupResult>>;

/** `lookup_catalog`: current offers of known products, by id or retailer URL. */
export const lookupCatalogTool = /* @__PURE__ */ defineCatalogTool<
  LookupCatalogInput,
  LookupCatalogOutput,
  'lookup_catalog'
>({
  name: LOOKUP_CATALOG_TOOL,
  description: (names, buyLinks) =>
    [
      `Look up products by product_id (from ${names.search_catalog}) or by the URL of a retailer's product page the shopper gives: current prices, availability and buy links.`,
      'Use it to check products shown earlier or a link the shopper pasted; ids or URLs not found are listed as not_found.',
      catalogViewLegend(buyLinks),
    ].join(' '),
  inputSchema: LookupCatalogInputSchema,
  mutates: false,
  async execute(input, { client, signal }) {
    const { product_ids: ids, urls } = input;
    const request: CatalogLookup = {
      ...(ids?.length ? { ids } : {}),
      ...(urls?.length ? { urls } : {}),
    };
    const { result, tier } = await client.catalog.lookup(request, signal ? { signal } : {});
    return { request, response: result, tier };
  },
  toModelOutput: ({ response, tier }, buyLinks) =>
    [
      `${countOf(response.products.length, 'product')} found.`,
      ...noticeLines(tier, response.messages),
      ...productSection(response.products, buyLinks),
    ].join('\n'),
  modelFieldName: (wirePath) =>
    wirePath.replace(/^catalog\.ids/, 'product_ids').replace(/^catalog\./, ''),
});
