/** How a model is asked to write a buy link it read as a reference. */
export type BuyLinkMode = 'inline' | 'reference';

/** Digits in a reference: 10^9 values, so two links of one conversation practically never share one. */
const REFERENCE_DIGITS = 9;

/** FNV-1a over UTF-16 code units: small, fast and the same in every runtime. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The short reference a model writes instead of a buy link, e.g. `[[buy:048213377]]`: derived
 * from the link alone, so `resolveBuyLinks` needs nothing but the tool outputs to turn it back.
 */
export function buyLinkReference(link: string): string {
  const id = (fnv1a(link) % 10 ** REFERENCE_DIGITS).toString().padStart(REFERENCE_DIGITS, '0');
  return `[[buy:${id}]]`;
}
