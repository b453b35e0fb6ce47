import type { CountryCode } from '@catalogkit/core';
import { COUNTRY_CODES } from '@catalogkit/core/schemas';
import type { CatalogData } from '../data/index.js';
import { allowedEdits, boundedEditDistance } from './fuzzy.js';
import { sameFirstLetter, substringCandidates } from './website-candidates.js';
import { normalizeDomain, normalizeName, type WebsiteKeys, websiteIndex } from './website-index.js';

/** Validated website search parameters (defaults applied). */
export interface WebsiteQuery {
  query: string;
  limit: number;
  categoryIds: string[];
  country: CountryCode;
}

/** A website as the search operation returns it (the contract's fields plus `name`). */
export interface WebsiteResult {
  id: string;
  url: string;
  best_commission_rate: number;
  name: string;
}

/** Relevance tiers, best first; fuzzy matches come after all three. */
const EXACT = 0;
const PREFIX = 1;
const CONTAINS = 2;

interface NormalizedQuery {
  compact: string;
  domain: string;
}

/** True when `needle` occurs in the compact name at the start of a word ("quarryout" in "Old Quarry Outfitters"). */
function atWordStart(keys: WebsiteKeys, needle: string): boolean {
  for (
    let at = keys.compactName.indexOf(needle);
    at !== -1;
    at = keys.compactName.indexOf(needle, at + 1)
  ) {
    if (keys.wordStarts.has(at)) return true;
  }
  return false;
}

function matchTier(keys: WebsiteKeys, q: NormalizedQuery): number | undefined {
  if (keys.domain === q.domain || keys.compactName === q.compact || keys.domainLabel === q.compact)
    return EXACT;
  const inName = keys.compactName.indexOf(q.compact);
  const inDomain = q.domain === '' ? -1 : keys.domain.indexOf(q.domain);
  if (inName === -1 && inDomain === -1) return undefined;
  if (inDomain === 0 || inName === 0 || (inName > 0 && atWordStart(keys, q.compact))) return PREFIX;
  return CONTAINS;
}

/**
 * The smallest edit distance between the query and the website: a domain-like query
 * ("fellandtrial.co.uk") against the domain, a name against the name, a name word,
 * the domain label or the start of the name.
 */
function fuzzyDistance(keys: WebsiteKeys, q: NormalizedQuery, max: number): number {
  if (q.domain.includes('.')) return boundedEditDistance(q.domain, keys.domain, max);
  const { compact } = q;
  let best = boundedEditDistance(compact, keys.compactName, max);
  if (best === 0) return 0;
  best = Math.min(best, boundedEditDistance(compact, keys.domainLabel, max));
  best = Math.min(
    best,
    boundedEditDistance(compact, keys.compactName.slice(0, compact.length), max),
  );
  for (const word of keys.words) best = Math.min(best, boundedEditDistance(compact, word, max));
  return best;
}

/** Websites allowed by the category filter: the union of the categories' top 1,000. */
function categoryFilter(
  data: CatalogData,
  categoryIds: readonly string[],
): ((index: number) => boolean) | undefined {
  if (categoryIds.length === 0) return undefined;
  const sets = categoryIds
    .map((slug) => data.categoryTopSets.get(slug))
    .filter((set) => set !== undefined);
  return (index) => sets.some((set) => set.has(index));
}

/**
 * Website search: exact domain or name first, then prefix, then substring, then fuzzy
 * (typos); within a tier, more popular websites first. Category ids must already be
 * validated (known and searchable).
 */
export function searchWebsites(data: CatalogData, params: WebsiteQuery): WebsiteResult[] {
  const q: NormalizedQuery = {
    compact: normalizeName(params.query).replace(/ /g, ''),
    domain: normalizeDomain(params.query),
  };
  if (q.compact === '') return [];
  const allowed = categoryFilter(data, params.categoryIds);
  const keys = websiteIndex(data);
  const tiers: WebsiteKeys[][] = [[], [], []];
  const matched = new Set<number>();
  // Only websites sharing the query's rarest trigram can contain it: verify those.
  const positions =
    substringCandidates(data, q.compact, q.domain) ?? keys.map((_, position) => position);
  for (const position of positions) {
    const entry = keys[position] as WebsiteKeys;
    if (allowed && !allowed(entry.index)) continue;
    const tier = matchTier(entry, q);
    if (tier === undefined) continue;
    tiers[tier]?.push(entry);
    matched.add(position);
  }
  const found = tiers.flat();
  // Fuzzy matching is the expensive part: only when the better tiers leave room. It keeps
  // the first letter, like search engines' "prefix length 1", which bounds its cost.
  if (found.length < params.limit) {
    const fuzzyPool = sameFirstLetter(data, q.compact.charAt(0))
      .filter((position) => !matched.has(position))
      .map((position) => keys[position] as WebsiteKeys)
      .filter((entry) => !allowed || allowed(entry.index));
    found.push(...fuzzyMatches(fuzzyPool, q));
  }
  const countryIndex = COUNTRY_CODES.indexOf(params.country);
  return found.slice(0, params.limit).map(({ website }) => ({
    id: website.id,
    url: website.url,
    best_commission_rate: website.commission[countryIndex] ?? 0,
    name: website.name,
  }));
}

function fuzzyMatches(candidates: readonly WebsiteKeys[], q: NormalizedQuery): WebsiteKeys[] {
  const max = allowedEdits(q.compact.length);
  if (max === 0) return [];
  return candidates
    .map((keys) => ({ keys, distance: fuzzyDistance(keys, q, max) }))
    .filter((entry) => entry.distance <= max)
    .sort((a, b) => a.distance - b.distance)
    .map((entry) => entry.keys);
}
