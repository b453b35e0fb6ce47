import { z } from 'zod/v4';
import type { Closed } from './closed.js';
import { CountryCodeSchema } from './common.js';

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
export const WebsiteSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  /**
   * The retailer's name: not in the contract, but a service may send it (the emulator
   * does). Any type is kept as sent, so read it with a `typeof` check.
   */
  name: z.unknown().optional(),
  best_commission_rate: z
    .number()
    .optional()
    .describe('Maximum commission rate in the requested country, as a percentage; default 0.'),
});
export type Website = Closed<z.infer<typeof WebsiteSchema>>;

/** Query parameters of `GET /v1/websites/search`, validated strictly before sending. */
export const WebsiteSearchParamsSchema = z.strictObject({
  query: z
    .string()
    .min(WEBSITE_SEARCH_LIMITS.queryMinLength)
    .max(WEBSITE_SEARCH_LIMITS.queryMaxLength)
    .describe(
      'Retailer name or domain to look for, 1 to 200 characters (e.g. "nike" or "zappos.com").',
    ),
  limit: z
    .number()
    .int()
    .min(WEBSITE_SEARCH_LIMITS.limitMin)
    .max(WEBSITE_SEARCH_LIMITS.limitMax)
    .optional()
    .describe('Maximum number of websites to return, 1 to 20 (default 5).'),
  category_ids: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'Category slugs; only websites selling in these categories (among each category’s top 1,000) match. An unknown category is an error.',
    ),
  country: CountryCodeSchema.optional().describe(
    'Country to which best_commission_rate is scoped (default US).',
  ),
});
export type WebsiteSearchParams = z.infer<typeof WebsiteSearchParamsSchema>;

/** Response of `GET /v1/websites/search`, ordered by relevance. */
export const WebsiteSearchResponseSchema = z.looseObject({
  websites: z.array(WebsiteSchema),
});
export type WebsiteSearchResponse = Closed<z.infer<typeof WebsiteSearchResponseSchema>>;
