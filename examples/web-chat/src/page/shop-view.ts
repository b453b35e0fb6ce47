import type { Product, Variant } from '@catalogkit/core';
import type { ShopMessage } from './messages.js';
import type { KnownCollection } from './page-config.js';

/** An image a card can show. */
export interface CardImage {
  url: string;
  alt: string;
}

const isAvailable = (variant: Variant): boolean => variant.availability?.available !== false;

/** True when at least one retailer has the product in stock (or does not say otherwise). */
export function inStock(product: Product): boolean {
  return product.variants.some(isAvailable);
}

/**
 * The offer a card shows: the first in stock with a buy link, else the first with a link,
 * else the first at all.
 */
export function offerOf(product: Product): Variant | undefined {
  const { variants } = product;
  return (
    variants.find((variant) => variant.url && isAvailable(variant)) ??
    variants.find((variant) => variant.url) ??
    variants[0]
  );
}

/** The service's order ("best first"), with products nobody has in stock moved to the end. */
export function shopperOrder(products: readonly Product[]): Product[] {
  return [...products.filter(inStock), ...products.filter((product) => !inStock(product))];
}

const isWebUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/** The offer's own picture, else the product's: the first image with an http(s) address. */
export function imageOf(product: Product, offer: Variant | undefined): CardImage | undefined {
  const media = [...(offer?.media ?? []), ...(product.media ?? [])];
  const image = media.find(
    (item) => (item.type === undefined || item.type === 'image') && isWebUrl(item.url),
  );
  if (!image) return undefined;
  return { url: image.url, alt: image.alt_text ?? product.title };
}

/**
 * Collection names by id: the ones the app knows, then every name an update in this chat
 * returned (the newest wins), so a change reads "to Summer", not "to col_summer".
 */
export function collectionNames(
  messages: readonly ShopMessage[],
  known: readonly KnownCollection[],
): Map<string, string> {
  const names = new Map(known.map((collection) => [collection.id, collection.name]));
  for (const part of messages.flatMap((message) => message.parts)) {
    if (part.type !== 'tool-update_collection' || part.state !== 'output-available') continue;
    const { request, response } = part.output;
    if (response.name) names.set(request.collectionId, response.name);
  }
  return names;
}
