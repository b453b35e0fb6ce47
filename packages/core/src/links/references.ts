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
 * The short reference a model writes instead of a buy link, e.g. `[[buy:048213377]]`. It is
 * derived from the link alone, so it is the same in every call, run and process, and
 * {@link resolveBuyLinks} needs nothing but the tool outputs to turn it back. Nine digits
 * cost about seven tokens, against 100 or more for a monetized link.
 */
export function buyLinkReference(link: string): string {
  const id = (fnv1a(link) % 10 ** REFERENCE_DIGITS).toString().padStart(REFERENCE_DIGITS, '0');
  return `[[buy:${id}]]`;
}

/**
 * A reference as models write it: `[[buy:ID]]`, forgiving spaces, letter case and a missing or
 * lost bracket (`[buy:ID]`, `[[buy:ID]`), or a bare `buy:ID` (as in `[Buy](buy:ID)`); the id
 * is group 1 or 2. Brackets are consumed with the reference, so a miscopied one leaves no
 * stray bracket around the link. The third alternative (group 3) is a reference damaged past
 * recognition (`[[bu:123456789]]`: double brackets around six digits or more), which must be
 * reported rather than shown to the shopper as if it were text.
 */
export const REFERENCE_PATTERN =
  /\[\[?\s*buy\s*:\s*(\d+)(?:\s*\]){0,2}|(?<![\w:/])buy:(\d+)(?!\d)|\[\[([^[\]\n]{0,24}?\d{6}[^[\]\n]{0,24}?)\]\]/gi;

/**
 * The start of a reference a stream may still complete: the text from here is held back
 * until the next chunk tells whether it is one.
 */
const REFERENCE_PREFIX =
  /(?:\[\[?\s*(?:b(?:u(?:y(?:\s*(?::\s*(?:\d+(?:\s*\]?\s*)?)?)?)?)?)?)?|(?<![\w:/])b(?:u(?:y(?::\d*)?)?)?|\[\[[^[\]\n]{0,50}\]?)$/i;

/** Where a possibly unfinished reference starts at the end of a text, or `text.length`. */
export function unfinishedReferenceStart(text: string): number {
  const match = REFERENCE_PREFIX.exec(text.slice(-60));
  return match ? text.length - match[0].length : text.length;
}
