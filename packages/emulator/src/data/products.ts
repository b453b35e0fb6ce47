import type { SeededRandom } from '../random.js';
import type { BrandRecord } from './brands.js';
import { CATEGORY_DEFINITIONS, type CategoryDefinition } from './categories.js';
import type { CategoryTopLists } from './category-ranks.js';
import { productImagePath } from './media-path.js';
import type { WebsiteRecord } from './websites.js';
import { COLORS, MODEL_NAMES } from './words.js';

export const PRODUCT_COUNT = 6000;

/** A price in minor units. */
export interface PriceRecord {
  amount: number;
  currency: string;
}

/** One retailer's offer of a product, in the UCP variant shape (before monetization). */
export interface VariantRecord {
  id: string;
  title: string;
  description: { plain: string };
  price: PriceRecord;
  list_price?: PriceRecord;
  /** The retailer's own buy link; monetized per request for the token tier. */
  url: string;
  availability: { available: boolean; status: string };
  options: { name: string; label: string }[];
  seller: { name: string; links: { type: string; url: string }[] };
  sku: string;
  metadata: { website_id: string; seller_country: string };
}

/** A product in the UCP product shape. */
export interface ProductRecord {
  id: string;
  title: string;
  handle: string;
  description: { plain: string };
  price_range: { min: PriceRecord; max: PriceRecord };
  variants: VariantRecord[];
  categories: { value: string; taxonomy: string }[];
  /** Images; `url` is a path on the emulator (absolute in answers, on the address asked). */
  media: { type: string; url: string; alt_text: string }[];
  rating: { value: number; scale_max: number; count: number };
  tags: string[];
  metadata: { brand_id: string; brand_name: string; category_ids: string[] };
}

interface ProductContext {
  rng: SeededRandom;
  brandsByVertical: Map<string, BrandRecord[]>;
  sellersBySlug: Map<string, number[]>;
  topLists: CategoryTopLists;
  websites: readonly WebsiteRecord[];
}

const slugify = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Shop-style prices: whole dollars minus one cent ($119.99 is 11999). */
const shopPrice = (cents: number): number => Math.max(99, Math.round(cents / 100) * 100 - 1);

function pickCategory(rng: SeededRandom, totalWeight: number): CategoryDefinition {
  let roll = rng.next() * totalWeight;
  for (const category of CATEGORY_DEFINITIONS) {
    roll -= category.weight;
    if (roll <= 0) return category;
  }
  return CATEGORY_DEFINITIONS[0] as CategoryDefinition;
}

/** Mostly well-ranked sellers of the category, sometimes any seller (even outside the top 1,000). */
function pickRetailers(context: ProductContext, slug: string, count: number): WebsiteRecord[] {
  const { rng, topLists, sellersBySlug, websites } = context;
  const top = topLists.get(slug) ?? [];
  const all = sellersBySlug.get(slug) ?? [];
  const chosen = new Set<number>();
  for (let attempt = 0; chosen.size < count && attempt < count * 4; attempt++) {
    const fromTop = rng.chance(0.75) && top.length > 0;
    const pool = fromTop ? top : all;
    const span = fromTop ? Math.min(300, top.length) : all.length;
    const index = pool[Math.floor(rng.next() * span)];
    if (index !== undefined) chosen.add(index);
  }
  return [...chosen].map((index) => websites[index] as WebsiteRecord);
}

function buildVariant(
  context: ProductContext,
  product: { id: string; title: string; handle: string; basePrice: number },
  website: WebsiteRecord,
  index: number,
): VariantRecord {
  const { rng } = context;
  const color = rng.pick(COLORS);
  const number = rng.int(100000, 999999);
  const amount = shopPrice(product.basePrice * (0.85 + rng.next() * 0.25));
  const available = rng.chance(0.85);
  // Real feeds carry encoded slashes, plus signs and several parameters: a client that
  // re-encodes or normalizes the link changes it, which the tests are meant to catch.
  const url = `${website.url}/products/${product.handle}?variant=${number}&color=${encodeURIComponent(color)}&utm_source=catalog+feed`;
  return {
    id: `${product.id}_v${index + 1}`,
    title: `${product.title} - ${color}`,
    description: { plain: `${product.title} in ${color}, sold by ${website.name}.` },
    price: { amount, currency: 'USD' },
    ...(rng.chance(0.3)
      ? { list_price: { amount: shopPrice(amount * 1.25), currency: 'USD' } }
      : {}),
    url,
    availability: {
      available,
      status: available ? 'in_stock' : rng.pick(['out_of_stock', 'backorder']),
    },
    options: [{ name: 'Color', label: color }],
    seller: { name: website.name, links: [{ type: 'website', url: website.url }] },
    sku: `${website.domain.slice(0, 3).toUpperCase()}-${number}`,
    metadata: { website_id: website.id, seller_country: website.homeCountry },
  };
}

function buildProduct(context: ProductContext, index: number, totalWeight: number): ProductRecord {
  const { rng } = context;
  const category = pickCategory(rng, totalWeight);
  const brand = rng.pick(context.brandsByVertical.get(category.vertical) ?? []);
  const version = rng.chance(0.6) ? ` ${rng.int(2, 9)}` : '';
  const suffix = rng.chance(0.2) ? ' GTX' : '';
  const title = `${brand.name} ${rng.pick(MODEL_NAMES)}${version}${suffix} ${rng.pick(category.nouns)}`;
  const id = `prod_${(index + 1).toString(36).padStart(5, '0')}`;
  const handle = `${slugify(title)}-${index + 1}`;
  const basePrice = category.priceMin + rng.next() * (category.priceMax - category.priceMin);
  const retailers = pickRetailers(context, category.slug, rng.int(1, 4));
  const variants = retailers.map((website, i) =>
    buildVariant(context, { id, title, handle, basePrice }, website, i),
  );
  const amounts = variants.map((variant) => variant.price.amount);
  return {
    id,
    title,
    handle,
    description: { plain: `${title} by ${brand.name}. ${category.name} for everyday use.` },
    price_range: {
      min: { amount: Math.min(...amounts), currency: 'USD' },
      max: { amount: Math.max(...amounts), currency: 'USD' },
    },
    variants,
    categories: [{ value: category.slug, taxonomy: 'catalogkit' }],
    media: [{ type: 'image', url: productImagePath(id), alt_text: title }],
    rating: {
      value: Math.round((3 + rng.next() * 2) * 10) / 10,
      scale_max: 5,
      count: rng.int(0, 4000),
    },
    tags: [category.name.toLowerCase(), brand.name.toLowerCase()],
    metadata: { brand_id: brand.id, brand_name: brand.name, category_ids: [category.slug] },
  };
}

/** Generates PRODUCT_COUNT products with one variant per retailer selling them. */
export function generateProducts(
  rng: SeededRandom,
  websites: readonly WebsiteRecord[],
  brands: readonly BrandRecord[],
  topLists: CategoryTopLists,
): ProductRecord[] {
  const brandsByVertical = new Map<string, BrandRecord[]>();
  for (const brand of brands) {
    brandsByVertical.set(brand.vertical, [...(brandsByVertical.get(brand.vertical) ?? []), brand]);
  }
  const sellersBySlug = new Map<string, number[]>();
  websites.forEach((website, index) => {
    for (const slug of website.categories) {
      const sellers = sellersBySlug.get(slug) ?? [];
      sellers.push(index);
      sellersBySlug.set(slug, sellers);
    }
  });
  const context: ProductContext = { rng, brandsByVertical, sellersBySlug, topLists, websites };
  const totalWeight = CATEGORY_DEFINITIONS.reduce((sum, category) => sum + category.weight, 0);
  return Array.from({ length: PRODUCT_COUNT }, (_, index) =>
    buildProduct(context, index, totalWeight),
  );
}
