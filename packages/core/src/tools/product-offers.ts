/** One offer of a product: the record it is shown from and its buy link, if it has one. */
export interface ProductOffer {
  /** A variant record, or the product itself when it has no variants. */
  offer: Record<string, unknown>;
  /**
   * The offer's `url` when it is a web address (`https:` or `http:`, as the URL parser reads
   * it), byte for byte: a hostile or broken service that puts `javascript:` or `data:` there
   * gives no buy link at all, so nothing downstream (verify, render, references) can trust it.
   */
  link: string | undefined;
}

/**
 * The offers of one product and their buy links: each variant that is a record, or the
 * product itself when its `variants` list is empty or absent (a list holding no record gives
 * no offer, and no fallback to the product's `url`). The one buy-link rule of `@catalogkit/links`
 * and the MCP storefront, which ships this very function as source text: keep it self-contained.
 */
export function productOffers(product: unknown): ProductOffer[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const webLink = (value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    // Not URL.parse: the storefront runs this in hosts' browsers, some without it.
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      return undefined;
    }
    return protocol === 'https:' || protocol === 'http:' ? value : undefined;
  };
  if (!isRecord(product)) return [];
  const variants = Array.isArray(product.variants) ? product.variants : [];
  if (variants.length === 0) return [{ offer: product, link: webLink(product.url) }];
  return variants.filter(isRecord).map((offer) => ({ offer, link: webLink(offer.url) }));
}
