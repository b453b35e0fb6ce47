import { COUNTRY_CODES, type CountryCode } from '@catalogkit/core/schemas';

/** The shopping request `pnpm demo` sends when none is given on the command line. */
export const DEFAULT_SHOPPING_REQUEST =
  'Find trail running shoes under $120 at a retailer with good commission in GB, ' +
  'then add the best two to my Summer collection (id col_summer).';

/** What the scripted shopper understood from a request written in plain words. */
export interface ShoppingRequest {
  /** The request as the shopper wrote it. */
  text: string;
  /** What to search the catalog for, e.g. "trail running shoes". */
  productQuery: string;
  /** Price ceiling in minor units (USD), from "under $120"; undefined when none is given. */
  maxPriceMinor?: number;
  /** Country whose commission rates matter, from "in GB". */
  country?: CountryCode;
  /** Collection to add the picks to, from "(id col_summer)". */
  collectionId?: string;
  /** How many products to pick, from "the best two". */
  count: number;
  /** The product the shopper asks about, from "tell me more about prod_…". */
  productId?: string;
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
};

/** Country names shoppers write instead of the contract's codes. */
const COUNTRY_ALIASES: Readonly<Record<string, CountryCode>> = { UK: 'GB' };

function productQueryOf(text: string): string {
  const match =
    /\b(?:find|search for|look for|show me)\s+(.+?)(?=\s+(?:under|below|at|in|for|from)\b|[,.;]|$)/i.exec(
      text,
    );
  return (match?.[1] ?? text).trim();
}

function maxPriceOf(text: string): number | undefined {
  const match = /\b(?:under|below|less than|up to|max(?:imum)?)\s+\$\s?(\d+(?:\.\d{1,2})?)/i.exec(
    text,
  );
  return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) * 100);
}

function countryOf(text: string): CountryCode | undefined {
  for (const match of text.matchAll(/\b(?:in|for)\s+(?:the\s+)?([A-Z]{2})\b/g)) {
    const code = match[1] ?? '';
    const alias = COUNTRY_ALIASES[code];
    if (alias) return alias;
    if ((COUNTRY_CODES as readonly string[]).includes(code)) return code as CountryCode;
  }
  return undefined;
}

function countOf(text: string): number {
  const match = /\b(?:best|top)\s+(\d+|one|two|three|four|five)\b/i.exec(text);
  const word = match?.[1]?.toLowerCase();
  if (word === undefined) return 1;
  return NUMBER_WORDS[word] ?? Number(word);
}

/**
 * Reads the parts of a shopping request the scripted shopper acts on. A real model reads
 * the request itself; this only has to understand requests shaped like the demo's.
 */
export function parseShoppingRequest(text: string): ShoppingRequest {
  const collectionId = /\b(col_[A-Za-z0-9_-]+)/.exec(text)?.[1];
  const productId = /\b(prod_[A-Za-z0-9_-]+)/.exec(text)?.[1];
  const maxPriceMinor = maxPriceOf(text);
  const country = countryOf(text);
  return {
    text,
    productQuery: productQueryOf(text),
    count: countOf(text),
    ...(maxPriceMinor === undefined ? {} : { maxPriceMinor }),
    ...(country === undefined ? {} : { country }),
    ...(collectionId === undefined ? {} : { collectionId }),
    ...(productId === undefined ? {} : { productId }),
  };
}
