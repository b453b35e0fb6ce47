import { z } from 'zod/v4';
import { isRecord } from '../is-record.js';
import type { Closed } from './closed.js';

/** The name of the catalog search tool on the MCP endpoint. */
export const SEARCH_CATALOG_TOOL = 'search_catalog';

/** Placement value that asks for commission data in `variants[].placement`. */
export const AFFILIATE_PLACEMENT = 'affiliate';

// ---------------------------------------------------------------------------------------
// Request: `tools/call` arguments `{ meta, catalog }`, validated strictly.
// ---------------------------------------------------------------------------------------

/** `catalog.pagination`. The contract does not show bounds; UCP sets none (default 10). */
export const CatalogPaginationSchema = z.strictObject({
  limit: z
    .number()
    .int()
    .min(1)
    .describe('Maximum number of products to return (servers may clamp it).'),
  cursor: z.string().optional().describe('Cursor from a previous page, to get the next one.'),
});

/** The `catalog` argument of `search_catalog`. */
export const CatalogQuerySchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1)
    .describe('What the shopper is looking for, in plain words (e.g. "trail running shoes").'),
  pagination: CatalogPaginationSchema.optional(),
  placements: z
    .array(z.string().min(1))
    .optional()
    .describe('Use ["affiliate"] to get commission data on each variant (only with a valid key).'),
});
export type CatalogQuery = z.infer<typeof CatalogQuerySchema>;

/** `meta` may be null (this service accepts null) or carry UCP agent metadata. */
export const CatalogMetaSchema = z.looseObject({}).nullable();
export type CatalogMeta = z.infer<typeof CatalogMetaSchema>;

/** The `arguments` of a `tools/call` to `search_catalog`. */
export const SearchCatalogArgumentsSchema = z.strictObject({
  meta: CatalogMetaSchema,
  catalog: CatalogQuerySchema,
});
export type SearchCatalogArguments = z.infer<typeof SearchCatalogArgumentsSchema>;

// ---------------------------------------------------------------------------------------
// Result: `structuredContent` in the UCP catalog shape, parsed leniently. Every object
// keeps unknown fields, and buy links are plain strings that are never normalised.
// ---------------------------------------------------------------------------------------

/** A price in minor units (`{ amount: 1999, currency: "USD" }` is $19.99). */
export const PriceSchema = z.looseObject({
  amount: z.number(),
  currency: z.string(),
});
export type Price = Closed<z.infer<typeof PriceSchema>>;

export const DescriptionSchema = z.looseObject({
  plain: z.string().optional(),
  html: z.string().optional(),
  markdown: z.string().optional(),
});

export const MediaSchema = z.looseObject({
  type: z.string().optional(),
  url: z.string(),
  alt_text: z.string().optional(),
});

/** Commission data on a variant. Not part of UCP and not public: kept as an open object. */
export const PlacementSchema = z.looseObject({});
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

export const VariantSchema = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  description: z.union([DescriptionSchema, z.string()]).optional(),
  price: PriceSchema.optional(),
  /** The buy link. Monetized with a valid key. Never rewritten. */
  url: z.string().optional(),
  list_price: PriceSchema.optional(),
  availability: z
    .looseObject({ available: z.boolean().optional(), status: z.string().optional() })
    .optional(),
  options: z
    .array(z.looseObject({ name: z.string().optional(), label: z.string().optional() }))
    .optional(),
  media: z.array(MediaSchema).optional(),
  seller: z
    .looseObject({
      name: z.string().optional(),
      links: z.array(z.looseObject({})).optional(),
    })
    .optional(),
  sku: z.string().optional(),
  barcodes: z.array(z.looseObject({})).optional(),
  placement: PlacementSchema.optional(),
  /**
   * Not in UCP, but a service may send it (the emulator puts the retailer's `website_id`
   * there). Any type is kept as sent, so read it with a check.
   */
  metadata: z.unknown().optional(),
});
export type Variant = Closed<z.infer<typeof VariantSchema>>;

export const ProductSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.union([DescriptionSchema, z.string()]).optional(),
  price_range: z.looseObject({ min: PriceSchema, max: PriceSchema }).optional(),
  variants: z.array(VariantSchema),
  url: z.string().optional(),
  handle: z.string().optional(),
  categories: z
    .array(z.looseObject({ value: z.string(), taxonomy: z.string().optional() }))
    .optional(),
  media: z.array(MediaSchema).optional(),
  options: z.array(z.looseObject({})).optional(),
  rating: z
    .looseObject({ value: z.number(), scale_max: z.number(), count: z.number().optional() })
    .optional(),
  tags: z.array(z.string()).optional(),
  metadata: z.looseObject({}).optional(),
});
export type Product = Closed<z.infer<typeof ProductSchema>>;

export const CatalogMessageSchema = z.looseObject({
  type: z.string(),
  code: z.string().optional(),
  content: z.string(),
  severity: z.string().optional(),
});
export type CatalogMessage = Closed<z.infer<typeof CatalogMessageSchema>>;

export const CatalogPageInfoSchema = z.looseObject({
  cursor: z.string().optional(),
  has_next_page: z.boolean().optional(),
  total_count: z.number().optional(),
});

/** `structuredContent` of a `search_catalog` result. */
export const CatalogSearchResultSchema = z.looseObject({
  ucp: z.looseObject({}).optional(),
  products: z.array(ProductSchema).default([]),
  pagination: CatalogPageInfoSchema.optional(),
  messages: z.array(CatalogMessageSchema).optional(),
});
export type CatalogSearchResult = Closed<z.infer<typeof CatalogSearchResultSchema>>;

/** The `x-ucp-auth-tier` values. */
export const AuthTierSchema = z.enum(['token', 'anonymous']);
export type AuthTier = z.infer<typeof AuthTierSchema>;
