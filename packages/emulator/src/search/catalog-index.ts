import type { CatalogData } from '../data/index.js';

/** Postings: for each token, the products containing it and how strongly. */
export type CatalogIndex = Map<string, { product: number; weight: number }[]>;

const STOPWORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'for',
  'with',
  'of',
  'to',
  'in',
  'on',
  'me',
  'some',
  'any',
  'i',
  'want',
  'need',
  'find',
  'show',
  'buy',
  'pair',
  'best',
  'good',
  'cheap',
]);

/** Lowercase word stems: plural "s" dropped so "shoes" finds "Shoe". */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !STOPWORDS.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
}

const TITLE_WEIGHT = 3;
const CATEGORY_WEIGHT = 2;
const BRAND_WEIGHT = 2;

const indexes = new WeakMap<CatalogData, CatalogIndex>();

/** The inverted index of product titles, categories and brands, built once per catalog. */
export function catalogIndex(data: CatalogData): CatalogIndex {
  let index = indexes.get(data);
  if (index) return index;
  index = new Map();
  const built = index;
  data.products.forEach((product, position) => {
    const weights = new Map<string, number>();
    const add = (text: string, weight: number) => {
      for (const token of tokenize(text))
        weights.set(token, Math.max(weights.get(token) ?? 0, weight));
    };
    add(product.title, TITLE_WEIGHT);
    for (const category of product.categories) {
      add(category.value, CATEGORY_WEIGHT);
      add(data.categories.get(category.value)?.name ?? '', CATEGORY_WEIGHT);
    }
    add(product.metadata.brand_name, BRAND_WEIGHT);
    for (const [token, weight] of weights) {
      const postings = built.get(token) ?? [];
      postings.push({ product: position, weight });
      built.set(token, postings);
    }
  });
  indexes.set(data, built);
  return built;
}
