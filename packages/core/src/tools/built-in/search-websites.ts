import type { z } from 'zod/v4';
import { COUNTRY_CODES } from '../../schemas/common.js';
import { schema } from '../../schemas/define.js';
import {
  WEBSITE_SEARCH_LIMITS,
  type WebsiteSearchParams,
  WebsiteSearchParamsSchema,
  type WebsiteSearchResponse,
} from '../../schemas/websites.js';
import { countOf } from '../catalog-view.js';
import { type CatalogToolResult, defineCatalogTool } from '../definition.js';
import {
  choice,
  exactObject,
  integerText,
  list,
  listOf,
  modelInput,
  oneOf,
  text,
  wholeNumber,
} from '../model-input.js';

/** The example category id the description gives: a slug as the service's results use. */
const EXAMPLE_CATEGORY_ID = 'running-shoes';

/** Arguments the model gives `search_websites`; null, or left out, means "not given". */
export const SearchWebsitesInputSchema = /* @__PURE__ */ schema(() => {
  const { queryMaxLength, limitMin, limitMax, limitDefault, defaultCountry } =
    WEBSITE_SEARCH_LIMITS;
  return modelInput(
    exactObject({
      query: text('a retailer name or domain', WebsiteSearchParamsSchema.shape.query).describe(
        `Retailer name or domain, 1 to ${queryMaxLength} characters, e.g. "nike" or "zappos.com".`,
      ),
      limit: wholeNumber(limitMin, limitMax, `or null for the default (${limitDefault})`)
        .nullable()
        .describe(
          `How many websites to return, ${limitMin} to ${limitMax}; null for the default (${limitDefault}).`,
        ),
      category_ids: list(
        text(`a category id such as "${EXAMPLE_CATEGORY_ID}" (from the catalog search)`),
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
    {
      limit: integerText,
      category_ids: listOf(),
      // `UK` is not an ISO 3166-1 code, but models (and people) use it for Great Britain.
      country: oneOf(COUNTRY_CODES, { UK: 'GB' }),
    },
  );
});
/** The input of `search_websites` once validated: every field present, `null` meaning "not given". */
export type SearchWebsitesInput = z.output<typeof SearchWebsitesInputSchema>;

/** What the application gets from `search_websites`: the request as sent and the full response. */
export type SearchWebsitesOutput = CatalogToolResult<WebsiteSearchParams, WebsiteSearchResponse>;

/**
 * One line per website: its name (not in the contract; when sent, the model need not guess the
 * retailer from the domain), address, id and best commission rate.
 */
export function formatWebsites({ request, response }: SearchWebsitesOutput): string {
  const country = request.country ?? WEBSITE_SEARCH_LIMITS.defaultCountry;
  const head = `${countOf(response.websites.length, 'website')} for "${request.query}" (commission rates for ${country}).`;
  if (response.websites.length === 0)
    return `${head}\nNothing matched; try another name or domain.`;
  const lines = response.websites.map(({ name, url, id, best_commission_rate }, index) => {
    const named = typeof name === 'string' && name.trim() ? `${name.trim()} | ` : '';
    return `${index + 1}. ${named}${url} | website_id ${id} | best commission ${best_commission_rate ?? 0}%`;
  });
  return [head, ...lines].join('\n');
}

/** `search_websites`: retailers by name or domain, with their best commission rate. */
export const searchWebsitesTool = /* @__PURE__ */ defineCatalogTool<
  SearchWebsitesInput,
  SearchWebsitesOutput,
  'search_websites'
>({
  name: 'search_websites',
  description: (names) =>
    [
      'Find retail websites by retailer name or domain, optionally only those selling in given categories, with the best commission rate each pays in a country.',
      `Use it to get the website_id of a retailer by name (offers from ${names.search_catalog} already show theirs): website ids go into the website_ids of ${names.update_collection} clauses.`,
      'Results are ordered by relevance. Category filtering only considers each category’s top 1,000 websites.',
    ].join(' '),
  inputSchema: SearchWebsitesInputSchema,
  mutates: false,
  async execute(input, { client, defaults, signal }) {
    const limit = input.limit ?? defaults.limit;
    const country = input.country ?? defaults.country;
    const request: WebsiteSearchParams = {
      query: input.query,
      ...(limit === undefined ? {} : { limit }),
      ...(input.category_ids?.length ? { category_ids: input.category_ids } : {}),
      ...(country === undefined ? {} : { country }),
    };
    const response = await client.websites.search(request, signal ? { signal } : {});
    return { request, response };
  },
  toModelOutput: formatWebsites,
});
