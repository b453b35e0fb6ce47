import * as z from 'zod/v4/mini';
import { CatalogSearchResultSchema, ProductSchema } from './catalog.js';
import { type Closed, described, openObject, schema } from './define.js';

/** The name of the batch lookup tool (UCP `lookup_catalog`). */
export const LOOKUP_CATALOG_TOOL = 'lookup_catalog';
/** The name of the single-product tool (UCP `get_product`). */
export const GET_PRODUCT_TOOL = 'get_product';

/** Most ids plus URLs of one lookup: the service states none, so 50 is assumed (docs/service-contract.md). */
export const CATALOG_LOOKUP_MAX = 50;

/** Longest id, option name or label sent (a real one is far shorter). */
const LOOKUP_TEXT_MAX = 1000;
/** Longest retailer page URL sent (what browsers and servers commonly accept). */
const PAGE_URL_MAX = 2048;
/** Most `selected` options, and most `preferences`, of one get_product call. */
const SELECTION_MAX = 50;

const nonEmpty = () =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(LOOKUP_TEXT_MAX, { error: `must be at most ${LOOKUP_TEXT_MAX} characters` }),
    );

function pageUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be a full URL (http or https), e.g. https://shop.example/p/1';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  const host = url.hostname;
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || /(^|\.)localhost$/.test(host)) {
    return 'must be a retailer page on a public host name, not an IP address or localhost';
  }
  // Each label as DNS writes it (zod's own domain regex would bring all of zod's regexes,
  // 6.6 kB, to every page with the client): no empty label, so no trailing dot.
  const labels = host.split('.');
  const valid = labels.length > 1 && labels.every((label) => DNS_LABEL.test(label));
  return valid ? undefined : `has an invalid host name: ${host}`;
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A retailer page URL: http or https on a public host name (never an IP address or localhost), kept as written. */
export const PageUrlSchema = /* @__PURE__ */ schema(() =>
  z.string().check(
    z.maxLength(PAGE_URL_MAX, { error: `must be at most ${PAGE_URL_MAX} characters` }),
    z.check<string>((payload) => {
      const problem = pageUrlProblem(payload.value);
      if (problem) payload.issues.push({ code: 'custom', message: problem, input: payload.value });
    }),
  ),
);

/** The `catalog` argument of `lookup_catalog`: product/variant ids and/or retailer page URLs. */
export const CatalogLookupSchema = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      ids: described(
        z.optional(z.array(nonEmpty())),
        'Product or variant ids (product_id or offer id from a search).',
      ),
      urls: described(
        z.optional(z.array(PageUrlSchema)),
        'Retailer product page URLs (http or https), e.g. a link the shopper pasted.',
      ),
    })
    .check(
      z.refine(({ ids = [], urls = [] }) => ids.length + urls.length > 0, {
        error: 'Give at least one id in ids or one URL in urls',
      }),
      z.refine(({ ids = [], urls = [] }) => ids.length + urls.length <= CATALOG_LOOKUP_MAX, {
        error: `Give at most ${CATALOG_LOOKUP_MAX} ids and urls together`,
      }),
    ),
);
/** What `lookup_catalog` looks up: `ids` and/or `urls` (at least one, 50 together at most). */
export type CatalogLookup = z.infer<typeof CatalogLookupSchema>;

/** The `arguments` of a `tools/call` to `lookup_catalog`: `{ meta, catalog }`. */
export const LookupCatalogArgumentsSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({ meta: z.nullable(openObject()), catalog: CatalogLookupSchema }),
);
/** The `arguments` of a `tools/call` to `lookup_catalog`. */
export type LookupCatalogArguments = z.infer<typeof LookupCatalogArgumentsSchema>;

const OptionSelectionSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    name: described(nonEmpty(), 'Option name, e.g. "Size".'),
    label: described(nonEmpty(), 'Chosen value, e.g. "10".'),
  }),
);

/** The `catalog` argument of `get_product`: one id, optional option choices and their priority. */
export const ProductSelectionSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    id: described(nonEmpty(), 'A product id or an offer (variant) id.'),
    selected: described(
      z.optional(
        z.array(OptionSelectionSchema).check(
          z.maxLength(SELECTION_MAX, { error: `must hold at most ${SELECTION_MAX} options` }),
          z.refine((all) => new Set(all.map((o) => o.name)).size === all.length, {
            error: 'Name each option at most once',
          }),
        ),
      ),
      'Options chosen so far, e.g. [{"name":"Size","label":"10"}].',
    ),
    preferences: described(
      z.optional(
        z
          .array(nonEmpty())
          .check(z.maxLength(SELECTION_MAX, { error: `must hold at most ${SELECTION_MAX} names` })),
      ),
      'Option names to keep first when no offer matches every choice, e.g. ["Size","Color"].',
    ),
  }),
);
/** What `get_product` reads: `id`, and optionally `selected` options and `preferences`. */
export type ProductSelection = z.infer<typeof ProductSelectionSchema>;

/** The `arguments` of a `tools/call` to `get_product`: `{ meta, catalog }`. */
export const GetProductArgumentsSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({ meta: z.nullable(openObject()), catalog: ProductSelectionSchema }),
);
/** The `arguments` of a `tools/call` to `get_product`. */
export type GetProductArguments = z.infer<typeof GetProductArgumentsSchema>;

/**
 * `structuredContent` of `lookup_catalog`: a search answer whose offers say which request
 * ids resolved to them (`inputs[]`: `{ id, match: "exact" | "featured" }`; UCP correlation,
 * since the answer's order is not the request's). Unknown ids: `messages[]` with `not_found`.
 */
export const CatalogLookupResultSchema = /* @__PURE__ */ schema(() => {
  const input = z.looseObject({ id: z.string(), match: z.optional(z.string()) });
  const variant = z.extend(ProductSchema.shape.variants._zod.def.element, {
    inputs: z.optional(z.array(input)),
  });
  const product = z.extend(ProductSchema, { variants: z.array(variant) });
  return z.extend(CatalogSearchResultSchema, { products: z._default(z.array(product), []) });
});
/** A parsed `lookup_catalog` answer: products (offers with `inputs`), messages. */
export type CatalogLookupResult = Closed<z.infer<typeof CatalogLookupResultSchema>>;

/**
 * `structuredContent` of `get_product`: one `product` with the effective option `selected`,
 * absent when it was not found (then `messages[]` says `not_found`, in a successful result).
 */
export const GetProductResultSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    ucp: z.optional(z.looseObject({})),
    product: z.optional(
      z.extend(ProductSchema, {
        selected: z.optional(z.array(z.looseObject({ name: z.string(), label: z.string() }))),
      }),
    ),
    messages: CatalogSearchResultSchema.shape.messages,
  }),
);
/** A parsed `get_product` answer: the product (if found) and messages; unknown fields kept. */
export type GetProductResult = Closed<z.infer<typeof GetProductResultSchema>>;

/** A `tools/list` page: its tools (each read in mcp/catalog-lookup.ts) and the next cursor. */
export const ToolsListResultSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    tools: z.array(z.unknown()),
    nextCursor: z.optional(z.nullable(z.string())),
  }),
);
