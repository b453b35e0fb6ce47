import { SeededRandom } from '../random.js';
import { type BrandRecord, generateBrands } from './brands.js';
import { CATEGORY_DEFINITIONS, type CategoryDefinition } from './categories.js';
import { type CategoryTopLists, rankCategories } from './category-ranks.js';
import { generateProducts, type ProductRecord, type VariantRecord } from './products.js';
import { generateWebsites, type WebsiteRecord } from './websites.js';

export type { BrandRecord } from './brands.js';
export type { CategoryDefinition } from './categories.js';
export type { ProductRecord, VariantRecord } from './products.js';
export type { WebsiteRecord } from './websites.js';

/** The emulator's generated, read-only catalog for one seed. */
export interface CatalogData {
  seed: number;
  websites: readonly WebsiteRecord[];
  websiteById: ReadonlyMap<string, WebsiteRecord>;
  brands: readonly BrandRecord[];
  categories: ReadonlyMap<string, CategoryDefinition>;
  /** Per category slug: indexes into `websites` of its top 1,000, best first. */
  categoryTop: CategoryTopLists;
  /** Per category slug: the same top 1,000 as a set, for filtering. */
  categoryTopSets: ReadonlyMap<string, ReadonlySet<number>>;
  products: readonly ProductRecord[];
  productById: ReadonlyMap<string, ProductRecord>;
  /** Every offer by its id, with its product (`lookup_catalog` and `get_product` by variant id). */
  variantById: ReadonlyMap<string, { product: ProductRecord; variant: VariantRecord }>;
  /** Every offer by its retailer page ({@link pageKey} of its URL), for lookups by URL. */
  variantByPage: ReadonlyMap<string, { product: ProductRecord; variant: VariantRecord }>;
}

/**
 * A retailer page URL without query, fragment, host case or trailing slash: the link a
 * shopper pastes (`https://shop.test/products/x?utm=…`) finds the offer whose buy link it is.
 */
export function pageKey(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname.replace(/\/+$/, '')}`;
}

/** The default seed of the emulator and its CLI. */
export const DEFAULT_SEED = 42;

const cache = new Map<number, CatalogData>();

/** Generates the catalog for a seed without the cache (use `catalogData` normally). */
export function generateCatalogData(seed: number): CatalogData {
  // Separate streams per kind of data: adding a product field does not reshuffle websites.
  const websites = generateWebsites(new SeededRandom(seed));
  const brands = generateBrands(new SeededRandom(seed + 1));
  const categoryTop = rankCategories(new SeededRandom(seed + 2), websites);
  const products = generateProducts(new SeededRandom(seed + 3), websites, brands, categoryTop);
  const offers = products.flatMap((product) =>
    product.variants.map((variant) => ({ product, variant })),
  );
  return {
    seed,
    websites,
    websiteById: new Map(websites.map((website) => [website.id, website])),
    brands,
    categories: new Map(CATEGORY_DEFINITIONS.map((category) => [category.slug, category])),
    categoryTop,
    categoryTopSets: new Map([...categoryTop].map(([slug, list]) => [slug, new Set(list)])),
    products,
    productById: new Map(products.map((product) => [product.id, product])),
    variantById: new Map(offers.map((offer) => [offer.variant.id, offer])),
    variantByPage: new Map(offers.map((offer) => [pageKey(offer.variant.url) ?? '', offer])),
  };
}

/**
 * The catalog for a seed, generated once per process: every emulator started with the
 * same seed shares it (it is never mutated; per-instance state lives elsewhere).
 */
export function catalogData(seed: number = DEFAULT_SEED): CatalogData {
  let data = cache.get(seed);
  if (!data) {
    data = generateCatalogData(seed);
    cache.set(seed, data);
  }
  return data;
}
