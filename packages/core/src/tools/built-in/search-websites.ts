import {
  WEBSITE_SEARCH_LIMITS,
  type WebsiteSearchParams,
  type WebsiteSearchResponse,
} from '../../schemas/index.js';
import { defineCatalogTool } from '../definition.js';
import { type SearchWebsitesInput, SearchWebsitesInputSchema } from '../input/search-websites.js';
import { countOf } from '../plural.js';
import type { CatalogToolResult } from '../result.js';

export type { SearchWebsitesInput };

/** What the application gets from `search_websites`: the request as sent and the full response. */
export type SearchWebsitesOutput = CatalogToolResult<WebsiteSearchParams, WebsiteSearchResponse>;

function buildParams(
  input: SearchWebsitesInput,
  defaults: { limit?: number; country?: WebsiteSearchParams['country'] },
): WebsiteSearchParams {
  const limit = input.limit ?? defaults.limit;
  const country = input.country ?? defaults.country;
  return {
    query: input.query,
    ...(limit === undefined ? {} : { limit }),
    ...(input.category_ids?.length ? { category_ids: input.category_ids } : {}),
    ...(country === undefined ? {} : { country }),
  };
}

/**
 * The compact view: one line per website with its name (when sent: not in the contract, it
 * lets the model match the retailer it looked up without guessing from the domain), address,
 * id and best commission rate.
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
    const request = buildParams(input, defaults);
    const response = await client.websites.search(request, signal ? { signal } : {});
    return { request, response };
  },
  toModelOutput: formatWebsites,
});
