import type { z } from 'zod/v4';
import { COUNTRY_CODES } from '../../schemas/common.js';
import { schema } from '../../schemas/define.js';
import { WEBSITE_SEARCH_LIMITS, WebsiteSearchParamsSchema } from '../../schemas/websites.js';
import { integerText, listOf, oneOf, trimmed } from './coerce.js';
import { choice, exactObject, list, modelInput, text, wholeNumber } from './fields.js';

/**
 * The example category id the description gives: a lower-case, hyphenated slug as the
 * service and the catalog search's results use (a test checks the emulator accepts it).
 */
const EXAMPLE_CATEGORY_ID = 'running-shoes';

/** `UK` is not an ISO 3166-1 code, but models (and people) use it for Great Britain. */
const COUNTRY_ALIASES = { UK: 'GB' } as const;

/**
 * Arguments the model gives `search_websites`. The JSON Schema lists every field (null
 * means "not given"); a model may also leave optional fields out, send `"5"` for 5, a
 * country in any case (or `UK`), a lone category slug for a list of one.
 */
export const SearchWebsitesInputSchema = /* @__PURE__ */ schema(() => {
  const { queryMaxLength, limitMin, limitMax, limitDefault, defaultCountry } =
    WEBSITE_SEARCH_LIMITS;
  return modelInput(
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
        text({
          what: 'a category id',
          empty: `give a category id such as "${EXAMPLE_CATEGORY_ID}" (from the catalog search)`,
        }),
        'category ids',
      )
        .nullable()
        .describe(
          `Category ids to keep only retailers selling in them, exactly as the catalog search prints them (its "Category …" lines), e.g. ["${EXAMPLE_CATEGORY_ID}"]; an unknown id is an error; null for no filter.`,
        ),
      country: choice(COUNTRY_CODES, `or null for the default (${defaultCountry})`)
        .nullable()
        .describe(
          `Country whose commission rates to show (EU is the pan-region); null for the default (${defaultCountry}).`,
        ),
    }),
  );
});
/** The input of `search_websites` once validated: every field present, `null` meaning "not given". */
export type SearchWebsitesInput = z.output<typeof SearchWebsitesInputSchema>;
