import type { AuthTier, CountryCode } from '@catalogkit/core';
import { AFFILIATE_PLACEMENT, type SearchCatalogArguments } from '@catalogkit/core/schemas';
import type { CatalogData, ProductRecord } from '../data/index.js';
import { mediaForOrigin } from '../media.js';
import { searchCatalog } from '../search/catalog-search.js';
import { monetizedUrl, placementFor } from './links.js';

/** UCP sets no maximum; this service clamps silently, as UCP allows. */
export const CATALOG_LIMIT = { default: 10, max: 50 } as const;

/** UCP version reported in results. */
export const UCP_VERSION = '2026-01-11';

/** Who is asking: the tier decides links and placement data. */
export interface Caller {
  tier: AuthTier;
  /** The account's publisher id in tracking links (token tier only). */
  publisherId?: string;
}

const encodeCursor = (offset: number): string => btoa(`offset:${offset}`).replace(/=+$/, '');

function decodeCursor(cursor: string): number {
  let decoded = '';
  try {
    decoded = atob(cursor);
  } catch {
    // Not base64: reported below like any other bad cursor.
  }
  const match = decoded.match(/^offset:(\d+)$/);
  if (!match)
    throw new Error(
      `Invalid catalog.pagination.cursor '${cursor}': pass the cursor of a previous page.`,
    );
  return Number(match[1]);
}

export interface Presentation {
  withPlacement: boolean;
  country?: CountryCode;
  /** The origin the request came to: media paths become URLs on it. */
  origin?: string;
}

export function productForCaller(
  data: CatalogData,
  product: ProductRecord,
  caller: Caller,
  presentation: Presentation,
) {
  const { publisherId } = caller;
  const media = mediaForOrigin(product.media, presentation.origin);
  if (caller.tier !== 'token' || !publisherId) return { ...product, media };
  return {
    ...product,
    media,
    variants: product.variants.map((variant) => ({
      ...variant,
      url: monetizedUrl(variant, publisherId),
      ...(presentation.withPlacement
        ? { placement: placementFor(data, variant, presentation.country) }
        : {}),
    })),
  };
}

/**
 * `structuredContent` of `search_catalog` in the UCP catalog shape; `origin` (the address the
 * request came to) makes the product image paths absolute URLs.
 */
export function searchCatalogResult(
  data: CatalogData,
  args: SearchCatalogArguments,
  caller: Caller,
  origin?: string,
) {
  const { catalog } = args;
  const limit = Math.min(catalog.pagination?.limit ?? CATALOG_LIMIT.default, CATALOG_LIMIT.max);
  const offset = catalog.pagination?.cursor ? decodeCursor(catalog.pagination.cursor) : 0;
  const matches = searchCatalog(data, catalog.query, offset, limit);
  // Placement data needs both the token tier and an explicit request for it.
  const withPlacement =
    caller.tier === 'token' && (catalog.placements ?? []).includes(AFFILIATE_PLACEMENT);
  const hasNext = offset + limit < matches.totalCount;
  const messages = matches.partial
    ? [
        {
          type: 'info',
          code: 'partial_match',
          content: 'No product matched every word; showing the closest matches.',
        },
      ]
    : [];
  return {
    ucp: { version: UCP_VERSION },
    products: matches.products.map((product) =>
      productForCaller(data, product, caller, {
        withPlacement,
        ...(origin ? { origin } : {}),
        ...(matches.country ? { country: matches.country } : {}),
      }),
    ),
    pagination: {
      has_next_page: hasNext,
      total_count: matches.totalCount,
      ...(hasNext ? { cursor: encodeCursor(offset + limit) } : {}),
    },
    ...(messages.length > 0 ? { messages } : {}),
  };
}
