import * as z from 'zod/v4/mini';
import { COUNTRY_CODES } from './common.js';
import { type Closed, schema } from './define.js';

/** Website search limits from the contract. */
export const WEBSITE_SEARCH_LIMITS = {
  queryMinLength: 1,
  queryMaxLength: 200,
  limitMin: 1,
  limitMax: 20,
  limitDefault: 5,
  defaultCountry: 'US',
} as const;

/** Query parameters of `GET /v1/websites/search`, validated strictly before sending. */
export const WebsiteSearchParamsSchema = /* @__PURE__ */ schema(() => {
  const { queryMinLength, queryMaxLength, limitMin, limitMax } = WEBSITE_SEARCH_LIMITS;
  return z.strictObject({
    query: z.string().check(z.minLength(queryMinLength), z.maxLength(queryMaxLength)),
    limit: z.optional(z.number().check(z.int(), z.minimum(limitMin), z.maximum(limitMax))),
    /** Category slugs; only websites selling in them (among each category's top 1,000) match. */
    category_ids: z.optional(z.array(z.string().check(z.minLength(1)))),
    /** The country `best_commission_rate` is scoped to (default US). */
    country: z.optional(z.enum(COUNTRY_CODES)),
  });
});
/** The parameters of a website search: a query, and optionally a limit, categories and a country. */
export type WebsiteSearchParams = z.infer<typeof WebsiteSearchParamsSchema>;

/** Response of `GET /v1/websites/search`, ordered by relevance. */
export const WebsiteSearchResponseSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    websites: z.array(
      z.looseObject({
        id: z.string(),
        url: z.string(),
        /** Not in the contract, but a service may send it (the emulator does); kept as sent. */
        name: z.optional(z.unknown()),
        /** Best commission rate in the requested country, as a percentage; default 0. */
        best_commission_rate: z.optional(z.number()),
      }),
    ),
  }),
);
/** A website search answer: the websites, most relevant first. */
export type WebsiteSearchResponse = Closed<z.infer<typeof WebsiteSearchResponseSchema>>;
/** A retail website of a website search answer; unknown fields kept. */
export type Website = WebsiteSearchResponse['websites'][number];
