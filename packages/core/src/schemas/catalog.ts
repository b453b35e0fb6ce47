import * as z from 'zod/v4/mini';
import { isRecord } from '../is-record.js';
import { type Closed, described, openObject, schema } from './define.js';

/** The name of the catalog search tool on the MCP endpoint. */
export const SEARCH_CATALOG_TOOL = 'search_catalog';

/** Placement value that asks for commission data in `variants[].placement`. */
export const AFFILIATE_PLACEMENT = 'affiliate';

/**
 * Most products the client keeps of one answer, whatever `pagination.limit` asked: the
 * contract and UCP set no bound, and 100 leaves a direct caller room while bounding memory.
 */
export const CATALOG_LIMIT_MAX = 100;

/** Most variants kept per product: well above a real product's dozens, it bounds a hostile answer. */
export const CATALOG_VARIANTS_MAX = 100;

// Request: `tools/call` arguments `{ meta, catalog }`, validated strictly. The descriptions
// reach the emulator's tool list (the MCP SDK reads them with `z.toJSONSchema`).

/** `catalog.pagination`. The contract does not show bounds; UCP sets none (default 10). */
export const CatalogPaginationSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    limit: described(
      z.number().check(z.int(), z.minimum(1)),
      'Maximum number of products to return (servers may clamp it).',
    ),
    cursor: described(z.optional(z.string()), 'Cursor from a previous page, to get the next one.'),
  }),
);

/** The `catalog` argument of `search_catalog`. */
export const CatalogQuerySchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    query: described(
      z.string().check(z.trim(), z.minLength(1)),
      'What the shopper is looking for, in plain words (e.g. "trail running shoes").',
    ),
    pagination: z.optional(CatalogPaginationSchema),
    placements: described(
      z.optional(z.array(z.string().check(z.minLength(1)))),
      'Use ["affiliate"] to get commission data on each variant (only with a valid key).',
    ),
  }),
);
/** A catalog search as the client sends it: the query, optional pagination and placements. */
export type CatalogQuery = z.infer<typeof CatalogQuerySchema>;

/** The `arguments` of a `tools/call` to `search_catalog`: `{ meta, catalog }`. */
export const SearchCatalogArgumentsSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({ meta: z.nullable(openObject()), catalog: CatalogQuerySchema }),
);
/** The `arguments` of a `tools/call` to `search_catalog`: `{ meta, catalog }`. */
export type SearchCatalogArguments = z.infer<typeof SearchCatalogArgumentsSchema>;
/** The `meta` argument of `search_catalog`: null, or UCP agent metadata. */
export type CatalogMeta = SearchCatalogArguments['meta'];

// Result: `structuredContent` in the UCP catalog shape, parsed leniently. Every object keeps
// unknown fields, and buy links are plain strings that are never normalised.

const text = () => z.optional(z.string());
const records = () => z.optional(z.array(z.looseObject({})));

/** A product of a catalog answer: id, title, variants (each with its buy link), details. */
export const ProductSchema = /* @__PURE__ */ schema(() => {
  const price = z.looseObject({ amount: z.number(), currency: z.string() });
  const description = z.optional(
    z.union([z.looseObject({ plain: text(), html: text(), markdown: text() }), z.string()]),
  );
  const media = z.optional(
    z.array(z.looseObject({ type: text(), url: z.string(), alt_text: text() })),
  );
  const variant = z.looseObject({
    id: z.string(),
    title: text(),
    description,
    price: z.optional(price),
    /** The buy link: monetized with a valid key, never rewritten. */
    url: text(),
    list_price: z.optional(price),
    availability: z.optional(z.looseObject({ available: z.optional(z.boolean()), status: text() })),
    options: z.optional(z.array(z.looseObject({ name: text(), label: text() }))),
    media,
    seller: z.optional(z.looseObject({ name: text(), links: records() })),
    sku: text(),
    barcodes: records(),
    /** Commission data: not in UCP and not public, so an open object. */
    placement: z.optional(z.looseObject({})),
    /** Not in UCP; the emulator puts the retailer's `website_id` there. Kept as sent. */
    metadata: z.optional(z.unknown()),
  });
  return z.looseObject({
    id: z.string(),
    title: z.string(),
    description,
    price_range: z.optional(z.looseObject({ min: price, max: price })),
    variants: z.array(variant),
    url: text(),
    handle: text(),
    categories: z.optional(z.array(z.looseObject({ value: z.string(), taxonomy: text() }))),
    media,
    options: records(),
    rating: z.optional(
      z.looseObject({ value: z.number(), scale_max: z.number(), count: z.optional(z.number()) }),
    ),
    tags: z.optional(z.array(z.string())),
    metadata: z.optional(z.looseObject({})),
  });
});
/** A product of a catalog answer, with its variants. */
export type Product = Closed<z.infer<typeof ProductSchema>>;
/** A purchasable variant of a product: its buy link (`url`), price, availability and placement. */
export type Variant = Product['variants'][number];
/** A price in minor units with its currency (`{ amount: 1999, currency: "USD" }` is $19.99). */
export type Price = NonNullable<Variant['price']>;
/** Commission data on a variant (an open object; read it with `commissionPercentage`). */
export type Placement = NonNullable<Variant['placement']>;

/** A placement's commission as the comparable catalog sends it (not enforced on results). */
export interface PlacementCommission {
  percentage: { value: number | string };
  [key: string]: unknown;
}

/** The commission percentage of a placement (`12` or `"12.5"`), if it has one in the known shape. */
export function commissionPercentage(
  placement: Placement | undefined,
): number | string | undefined {
  const commission = placement?.commission;
  const percentage = isRecord(commission) ? commission.percentage : undefined;
  const value = isRecord(percentage) ? percentage.value : undefined;
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

/** `structuredContent` of a `search_catalog` result. */
export const CatalogSearchResultSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    ucp: z.optional(z.looseObject({})),
    products: z._default(z.array(ProductSchema), []),
    pagination: z.optional(
      z.looseObject({
        cursor: text(),
        has_next_page: z.optional(z.boolean()),
        total_count: z.optional(z.number()),
      }),
    ),
    messages: z.optional(
      z.array(
        z.looseObject({ type: z.string(), code: text(), content: z.string(), severity: text() }),
      ),
    ),
  }),
);
/** A parsed catalog answer: products (variants with buy links), pagination, messages. */
export type CatalogSearchResult = Closed<z.infer<typeof CatalogSearchResultSchema>>;

export const AUTH_TIERS = ['token', 'anonymous'] as const;
/** The `x-ucp-auth-tier` header: `token` or `anonymous`. */
export const AuthTierSchema = /* @__PURE__ */ schema(() => z.enum(AUTH_TIERS));
/** The tier the service applied to a catalog search: `token` (a valid key) or `anonymous`. */
export type AuthTier = z.infer<typeof AuthTierSchema>;
