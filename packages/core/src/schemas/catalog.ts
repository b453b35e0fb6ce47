import * as z from 'zod/v4/mini';
import { isRecord } from '../is-record.js';
import type { Closed } from './closed.js';
import { described, schema } from './define.js';

/** The name of the catalog search tool on the MCP endpoint. */
export const SEARCH_CATALOG_TOOL = 'search_catalog';

/** Placement value that asks for commission data in `variants[].placement`. */
export const AFFILIATE_PLACEMENT = 'affiliate';

// ---------------------------------------------------------------------------------------
// Request: `tools/call` arguments `{ meta, catalog }`, validated strictly.
// ---------------------------------------------------------------------------------------

/**
 * Most products the client keeps of one answer, whatever `pagination.limit` asked (the
 * request is not refused: the service clamps too, the emulator at 50). The contract shows no
 * bound and UCP sets none (default 10); the tools ask for at most 20, and 100 leaves a direct
 * caller room while bounding what one answer can make us hold.
 */
export const CATALOG_LIMIT_MAX = 100;

/**
 * Most variants (offers) kept per product of an answer. A product is one item across its
 * retailers and options (sizes × colours × sellers): a real shoe has dozens, so the cap sits
 * well above them (a dropped variant is a lost buy link) and only bounds a hostile answer:
 * with the tools' 20 products, at most 2 000 offers.
 */
export const CATALOG_VARIANTS_MAX = 100;

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

/** `meta` may be null (this service accepts null) or carry UCP agent metadata. */
export const CatalogMetaSchema = /* @__PURE__ */ schema(() => z.nullable(z.looseObject({})));
/** The `meta` argument of `search_catalog`: null, or UCP agent metadata. */
export type CatalogMeta = z.infer<typeof CatalogMetaSchema>;

/** The `arguments` of a `tools/call` to `search_catalog`. */
export const SearchCatalogArgumentsSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    meta: CatalogMetaSchema,
    catalog: CatalogQuerySchema,
  }),
);
/** The `arguments` of a `tools/call` to `search_catalog`: `{ meta, catalog }`. */
export type SearchCatalogArguments = z.infer<typeof SearchCatalogArgumentsSchema>;

// ---------------------------------------------------------------------------------------
// Result: `structuredContent` in the UCP catalog shape, parsed leniently. Every object
// keeps unknown fields, and buy links are plain strings that are never normalised.
// ---------------------------------------------------------------------------------------

/** A price in minor units (`{ amount: 1999, currency: "USD" }` is $19.99). */
export const PriceSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    amount: z.number(),
    currency: z.string(),
  }),
);
/** A price in minor units with its currency. */
export type Price = Closed<z.infer<typeof PriceSchema>>;

/** An optional text field of an answer. */
const optionalString = () => z.optional(z.string());

/** A product or variant description in one or more formats (plain, HTML, Markdown). */
export const DescriptionSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    plain: optionalString(),
    html: optionalString(),
    markdown: optionalString(),
  }),
);

/** An image or other medium of a product or variant: its URL, type and alt text. */
export const MediaSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    type: optionalString(),
    url: z.string(),
    alt_text: optionalString(),
  }),
);

/** Commission data on a variant. Not part of UCP and not public: kept as an open object. */
export const PlacementSchema = /* @__PURE__ */ schema(() => z.looseObject({}));
/** Commission data on a variant (an open object; read it with `commissionPercentage`). */
export type Placement = Closed<z.infer<typeof PlacementSchema>>;

/**
 * The commission inside a placement as the comparable catalog sends it
 * (`placement.commission.percentage.value`, e.g. 12 for 12%). Not enforced on results, since
 * the shape is not public; {@link commissionPercentage} reads it, the emulator builds it.
 */
export interface PlacementCommission {
  percentage: { value: number | string };
  [key: string]: unknown;
}

/**
 * The commission percentage of a variant's placement (`12` or `"12.5"` for 12.5%), or
 * undefined when the placement has none in the known shape.
 */
export function commissionPercentage(
  placement: Placement | undefined,
): number | string | undefined {
  const commission = placement?.commission;
  const percentage = isRecord(commission) ? commission.percentage : undefined;
  const value = isRecord(percentage) ? percentage.value : undefined;
  return typeof value === 'number' || typeof value === 'string' ? value : undefined;
}

/**
 * A variant of a product: id, buy link (`url`, never rewritten), price, availability,
 * placement and more; unknown fields kept.
 */
export const VariantSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    id: z.string(),
    title: optionalString(),
    description: z.optional(z.union([DescriptionSchema, z.string()])),
    price: z.optional(PriceSchema),
    /** The buy link. Monetized with a valid key. Never rewritten. */
    url: optionalString(),
    list_price: z.optional(PriceSchema),
    availability: z.optional(
      z.looseObject({ available: z.optional(z.boolean()), status: optionalString() }),
    ),
    options: z.optional(
      z.array(z.looseObject({ name: optionalString(), label: optionalString() })),
    ),
    media: z.optional(z.array(MediaSchema)),
    seller: z.optional(
      z.looseObject({
        name: optionalString(),
        links: z.optional(z.array(z.looseObject({}))),
      }),
    ),
    sku: optionalString(),
    barcodes: z.optional(z.array(z.looseObject({}))),
    placement: z.optional(PlacementSchema),
    /**
     * Not in UCP, but a service may send it (the emulator puts the retailer's `website_id`
     * there). Any type is kept as sent, so read it with a check.
     */
    metadata: z.optional(z.unknown()),
  }),
);
/** A purchasable variant of a product: its buy link (`url`), price, availability and placement. */
export type Variant = Closed<z.infer<typeof VariantSchema>>;

/**
 * A product of a catalog answer: id, title, variants (each with its buy link) and optional
 * details; unknown fields kept.
 */
export const ProductSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    id: z.string(),
    title: z.string(),
    description: z.optional(z.union([DescriptionSchema, z.string()])),
    price_range: z.optional(z.looseObject({ min: PriceSchema, max: PriceSchema })),
    variants: z.array(VariantSchema),
    url: optionalString(),
    handle: optionalString(),
    categories: z.optional(
      z.array(z.looseObject({ value: z.string(), taxonomy: optionalString() })),
    ),
    media: z.optional(z.array(MediaSchema)),
    options: z.optional(z.array(z.looseObject({}))),
    rating: z.optional(
      z.looseObject({ value: z.number(), scale_max: z.number(), count: z.optional(z.number()) }),
    ),
    tags: z.optional(z.array(z.string())),
    metadata: z.optional(z.looseObject({})),
  }),
);
/** A product of a catalog answer, with its variants. */
export type Product = Closed<z.infer<typeof ProductSchema>>;

/** One of `messages[]` in a catalog answer: a type, a text, optionally a code and a severity. */
export const CatalogMessageSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    type: z.string(),
    code: optionalString(),
    content: z.string(),
    severity: optionalString(),
  }),
);
/** A message of a catalog answer (`messages[]`), e.g. a warning about the query. */
export type CatalogMessage = Closed<z.infer<typeof CatalogMessageSchema>>;

/** `pagination` of a catalog answer: the cursor of the next page, whether there is one, a total. */
export const CatalogPageInfoSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    cursor: optionalString(),
    has_next_page: z.optional(z.boolean()),
    total_count: z.optional(z.number()),
  }),
);

/** `structuredContent` of a `search_catalog` result. */
export const CatalogSearchResultSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    ucp: z.optional(z.looseObject({})),
    products: z._default(z.array(ProductSchema), []),
    pagination: z.optional(CatalogPageInfoSchema),
    messages: z.optional(z.array(CatalogMessageSchema)),
  }),
);
/**
 * A parsed catalog answer: products (variants with buy links), pagination, messages;
 * unknown fields kept at run time.
 */
export type CatalogSearchResult = Closed<z.infer<typeof CatalogSearchResultSchema>>;

/** The `x-ucp-auth-tier` values. */
export const AUTH_TIERS = ['token', 'anonymous'] as const;

/** The `x-ucp-auth-tier` header: {@link AUTH_TIERS}. */
export const AuthTierSchema = /* @__PURE__ */ schema(() => z.enum(AUTH_TIERS));
/** The tier the service applied to a catalog search: `token` (a valid key) or `anonymous`. */
export type AuthTier = z.infer<typeof AuthTierSchema>;
