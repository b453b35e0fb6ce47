import {
  WEBSITE_SEARCH_LIMITS,
  type Website,
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

/** The retailer's name, which the contract does not show but a service may send. */
function websiteName(website: Website): string {
  const name = website.name;
  return typeof name === 'string' && name.trim() ? `${name.trim()} | ` : '';
}

// The name (when sent) lets the model match the retailer it looked up without guessing from
// the domain: a search for "Golden Supply" may also find "Cedar Golden Supply".
function websiteLine(website: Website, index: number): string {
  return `${index + 1}. ${websiteName(website)}${website.url} | website_id ${website.id} | best commission ${website.best_commission_rate ?? 0}%`;
}

/** The compact view: one line per website with its name, address, id and best commission rate. */
export function formatWebsites(output: SearchWebsitesOutput): string {
  const { request, response } = output;
  const country = request.country ?? WEBSITE_SEARCH_LIMITS.defaultCountry;
  const head = `${countOf(response.websites.length, 'website')} for "${request.query}" (commission rates for ${country}).`;
  if (response.websites.length === 0)
    return `${head}\nNothing matched; try another name or domain.`;
  return [head, ...response.websites.map(websiteLine)].join('\n');
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
