import * as z from 'zod/v4/mini';
import type { Closed } from './closed.js';
import { CountryCodeSchema } from './common.js';
import { described, schema } from './define.js';

/** Website search limits from the contract. */
export const WEBSITE_SEARCH_LIMITS = {
  queryMinLength: 1,
  queryMaxLength: 200,
  limitMin: 1,
  limitMax: 20,
  limitDefault: 5,
  defaultCountry: 'US',
} as const;

/** A retail website, as returned by website search. Unknown fields are kept. */
export const WebsiteSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    id: z.string(),
    url: z.string(),
    /**
     * The retailer's name: not in the contract, but a service may send it (the emulator
     * does). Any type is kept as sent, so read it with a `typeof` check.
     */
    name: z.optional(z.unknown()),
    best_commission_rate: described(
      z.optional(z.number()),
      'Maximum commission rate in the requested country, as a percentage; default 0.',
    ),
  }),
);
/** A retail website of a website search answer. */
export type Website = Closed<z.infer<typeof WebsiteSchema>>;

/** Query parameters of `GET /v1/websites/search`, validated strictly before sending. */
export const WebsiteSearchParamsSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    query: described(
      z
        .string()
        .check(
          z.minLength(WEBSITE_SEARCH_LIMITS.queryMinLength),
          z.maxLength(WEBSITE_SEARCH_LIMITS.queryMaxLength),
        ),
      'Retailer name or domain to look for, 1 to 200 characters (e.g. "nike" or "zappos.com").',
    ),
    limit: described(
      z.optional(
        z
          .number()
          .check(
            z.int(),
            z.minimum(WEBSITE_SEARCH_LIMITS.limitMin),
            z.maximum(WEBSITE_SEARCH_LIMITS.limitMax),
          ),
      ),
      'Maximum number of websites to return, 1 to 20 (default 5).',
    ),
    category_ids: described(
      z.optional(z.array(z.string().check(z.minLength(1)))),
      'Category slugs; only websites selling in these categories (among each category’s top 1,000) match. An unknown category is an error.',
    ),
    country: described(
      z.optional(CountryCodeSchema),
      'Country to which best_commission_rate is scoped (default US).',
    ),
  }),
);
/** The parameters of a website search: a query, and optionally a limit, categories and a country. */
export type WebsiteSearchParams = z.infer<typeof WebsiteSearchParamsSchema>;

/** Response of `GET /v1/websites/search`, ordered by relevance. */
export const WebsiteSearchResponseSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    websites: z.array(WebsiteSchema),
  }),
);
/** A website search answer: the websites, most relevant first. */
export type WebsiteSearchResponse = Closed<z.infer<typeof WebsiteSearchResponseSchema>>;
