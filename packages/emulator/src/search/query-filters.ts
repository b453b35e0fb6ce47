import type { CountryCode } from '@catalogkit/core';
import { COUNTRY_CODES } from '@catalogkit/core/schemas';

/** Constraints a shopper writes into the query text ("under $120", "in GB"). */
export interface QueryFilters {
  /** What is left to match against products. */
  text: string;
  /** Maximum price in minor units (inclusive). */
  maxPrice?: number;
  /** Minimum price in minor units (inclusive). */
  minPrice?: number;
  /** Only retailers serving this country. */
  country?: CountryCode;
}

const MONEY = String.raw`[$£€]?\s*(\d+(?:\.\d{1,2})?)\s*(?:usd|dollars?|gbp|eur)?`;
const MAX_PRICE = new RegExp(
  String.raw`\b(?:under|below|less than|cheaper than|up to|max(?:imum)?)\s+${MONEY}`,
  'i',
);
const MIN_PRICE = new RegExp(
  String.raw`\b(?:over|above|more than|at least|min(?:imum)?)\s+${MONEY}`,
  'i',
);
const COUNTRY = /\b(?:in|to|from|ships? to)\s+(?:the\s+)?([A-Z]{2})\b/;

const toMinor = (amount: string): number => Math.round(Number(amount) * 100);

/**
 * The catalog tool takes free text only, so price and country constraints are read from
 * it: the demo asks for "trail running shoes under $120 in GB".
 */
export function extractFilters(query: string): QueryFilters {
  let text = query;
  const filters: QueryFilters = { text };
  const max = text.match(MAX_PRICE);
  if (max) {
    filters.maxPrice = toMinor(max[1] as string);
    text = text.replace(max[0], ' ');
  }
  const min = text.match(MIN_PRICE);
  if (min) {
    filters.minPrice = toMinor(min[1] as string);
    text = text.replace(min[0], ' ');
  }
  const country = text.match(COUNTRY);
  const code = country?.[1]?.toUpperCase() === 'UK' ? 'GB' : country?.[1]?.toUpperCase();
  if (country && COUNTRY_CODES.includes(code as CountryCode)) {
    filters.country = code as CountryCode;
    text = text.replace(country[0], ' ');
  }
  filters.text = text;
  return filters;
}
