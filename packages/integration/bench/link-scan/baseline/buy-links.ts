// The baseline: core/src/links before issue 23, copied as it was (only this guard inlined).
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import type { Product } from '@catalogkit/core';

/**
 * What the links helpers accept as tool outputs: anything the application got from the
 * tools. Outputs of `search_catalog` (`{ query, result, tier }`) and bare catalog results
 * (`{ products }`) contribute their buy links; every other value is ignored, so an
 * application can pass all of its tool results.
 */
export type BuyLinkSources = Iterable<unknown>;

function productsOf(output: unknown): unknown[] {
  if (!isRecord(output)) return [];
  if (Array.isArray(output.products)) return output.products;
  return isRecord(output.result) && Array.isArray(output.result.products)
    ? output.result.products
    : [];
}

/**
 * The buy links of one product, as the catalog view prints them: each variant's `url`, or
 * the product's own `url` when it has no variants.
 */
export function productBuyLinks(product: Pick<Product, 'variants' | 'url'>): string[] {
  const variants = Array.isArray(product.variants) ? product.variants : [];
  if (variants.length === 0) return typeof product.url === 'string' ? [product.url] : [];
  return variants.flatMap((variant) =>
    isRecord(variant) && typeof variant.url === 'string' && variant.url ? [variant.url] : [],
  );
}

/** Every distinct buy link in some tool outputs, in the order they first appear. */
export function collectBuyLinks(outputs: BuyLinkSources): string[] {
  const links = new Set<string>();
  for (const output of outputs) {
    for (const product of productsOf(output)) {
      if (!isRecord(product)) continue;
      for (const link of productBuyLinks(product as Pick<Product, 'variants' | 'url'>)) {
        links.add(link);
      }
    }
  }
  return [...links];
}
