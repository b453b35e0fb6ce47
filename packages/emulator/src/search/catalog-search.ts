import type { CountryCode } from '@catalogkit/core';
import { COUNTRY_CODES } from '@catalogkit/core/schemas';
import type { CatalogData, ProductRecord, VariantRecord } from '../data/index.js';
import { tokenize } from './catalog-index.js';
import { rankProducts } from './catalog-ranking.js';
import { extractFilters, type QueryFilters } from './query-filters.js';

/** A ranked page of products whose variants all satisfy the query's constraints. */
export interface CatalogMatches {
  products: ProductRecord[];
  totalCount: number;
  /** True when no product matched every word and partial matches are shown. */
  partial: boolean;
  /** The shopper's country, when the query names one. */
  country?: CountryCode;
}

function variantAllowed(data: CatalogData, variant: VariantRecord, filters: QueryFilters): boolean {
  const amount = variant.price.amount;
  if (filters.maxPrice !== undefined && amount > filters.maxPrice) return false;
  if (filters.minPrice !== undefined && amount < filters.minPrice) return false;
  if (!filters.country) return true;
  const website = data.websiteById.get(variant.metadata.website_id);
  const countryIndex = COUNTRY_CODES.indexOf(filters.country);
  // A retailer serves its home country and every country where it pays commission.
  return (
    website !== undefined &&
    (website.homeCountry === filters.country || (website.commission[countryIndex] ?? 0) > 0)
  );
}

/** The product with only the variants that fit the constraints, and a matching price range; undefined if none fit. */
function narrowed(
  data: CatalogData,
  product: ProductRecord,
  filters: QueryFilters,
): ProductRecord | undefined {
  const variants = product.variants.filter((variant) => variantAllowed(data, variant, filters));
  if (variants.length === 0) return undefined;
  if (variants.length === product.variants.length) return product;
  const amounts = variants.map((variant) => variant.price.amount);
  const currency = variants[0]?.price.currency ?? 'USD';
  return {
    ...product,
    variants,
    price_range: {
      min: { amount: Math.min(...amounts), currency },
      max: { amount: Math.max(...amounts), currency },
    },
  };
}

/**
 * Catalog search: products matching every word first (then, if none does, the best
 * partial matches), ranked by how many words matched, where (title > category = brand)
 * and by review count; price and country constraints in the text narrow the variants.
 */
export function searchCatalog(
  data: CatalogData,
  query: string,
  offset: number,
  limit: number,
): CatalogMatches {
  const filters = extractFilters(query);
  const { order, partial } = rankProducts(data, [...new Set(tokenize(filters.text))]);
  // Only the requested page is built; the rest is only counted.
  const products: ProductRecord[] = [];
  let totalCount = 0;
  for (const position of order) {
    const record = data.products[position] as ProductRecord;
    if (!record.variants.some((variant) => variantAllowed(data, variant, filters))) continue;
    if (totalCount >= offset && totalCount < offset + limit) {
      const product = narrowed(data, record, filters);
      if (product) products.push(product);
    }
    totalCount += 1;
  }
  return {
    products,
    totalCount,
    partial,
    ...(filters.country ? { country: filters.country } : {}),
  };
}
