import type { z } from 'zod/v4';
import { COUNTRY_CODES } from '../../schemas/common.js';
import { WEBSITE_SEARCH_LIMITS, WebsiteSearchParamsSchema } from '../../schemas/websites.js';
import { integerText, listOf, oneOf, trimmed } from './coerce.js';
import { choice, exactObject, list, modelInput, text, wholeNumber } from './fields.js';

const { queryMaxLength, limitMin, limitMax, limitDefault, defaultCountry } = WEBSITE_SEARCH_LIMITS;

/** `UK` is not an ISO 3166-1 code, but models (and people) use it for Great Britain. */
const COUNTRY_ALIASES = { UK: 'GB' } as const;

/**
 * Arguments the model gives `search_websites`. The JSON Schema lists every field (null
 * means "not given"); a model may also leave optional fields out, send `"5"` for 5, a
 * country in any case (or `UK`), a lone category slug for a list of one.
 */
export const SearchWebsitesInputSchema = modelInput(
  {
    query: trimmed,
    limit: integerText,
    category_ids: listOf(trimmed),
    country: oneOf(COUNTRY_CODES, COUNTRY_ALIASES),
  },
  exactObject({
    query: text({
      what: 'a retailer name or domain',
      empty: 'give a retailer name or domain',
      rule: WebsiteSearchParamsSchema.shape.query,
    }).describe(
      `Retailer name or domain, 1 to ${queryMaxLength} characters, e.g. "nike" or "zappos.com".`,
    ),
    limit: wholeNumber(limitMin, limitMax, `or null for the default (${limitDefault})`)
      .nullable()
      .describe(
        `How many websites to return, ${limitMin} to ${limitMax}; null for the default (${limitDefault}).`,
      ),
    category_ids: list(
      text({ what: 'a category slug', empty: 'give a category slug such as "shoes"' }),
      'category slugs',
    )
      .nullable()
      .describe(
        'Category slugs to keep only retailers selling in them (e.g. ["shoes"]); an unknown slug is an error; null for no filter.',
      ),
    country: choice(COUNTRY_CODES, `or null for the default (${defaultCountry})`)
      .nullable()
      .describe(
        `Country whose commission rates to show (EU is the pan-region); null for the default (${defaultCountry}).`,
      ),
  }),
);
export type SearchWebsitesInput = z.output<typeof SearchWebsitesInputSchema>;
