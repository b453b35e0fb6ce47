import { describe, expect, it } from 'vitest';
import { catalogData } from '../src/index.js';
import { normalizeDomain, normalizeName, websiteIndex } from '../src/search/website-index.js';
import { searchWebsites } from '../src/search/website-search.js';

/** The non-fuzzy ranking by brute force over every website: what the trigram index must reproduce. */
function bruteForce(query: string): string[] {
  const data = catalogData(42);
  const compact = normalizeName(query).replace(/ /g, '');
  const domain = normalizeDomain(query);
  const tierOf = (entry: ReturnType<typeof websiteIndex>[number]): number => {
    if (entry.domain === domain || entry.compactName === compact || entry.domainLabel === compact)
      return 0;
    const inName = entry.compactName.indexOf(compact);
    const inDomain = entry.domain.indexOf(domain);
    const atWordStart = [...entry.wordStarts].some((start) =>
      entry.compactName.startsWith(compact, start),
    );
    if (inDomain === 0 || inName === 0 || atWordStart) return 1;
    return inName >= 0 || inDomain >= 0 ? 2 : 3;
  };
  return websiteIndex(data)
    .map((entry) => ({ entry, tier: tierOf(entry) }))
    .filter(({ tier }) => tier < 3)
    .sort((a, b) => a.tier - b.tier)
    .map(({ entry }) => entry.website.id);
}

describe('website search index', () => {
  it('finds exactly what a full scan finds, for substrings of many names and domains', () => {
    const data = catalogData(42);
    const queries = data.websites
      .filter((_, i) => i % 37 === 0)
      .flatMap((website, i) => {
        const compact = normalizeName(website.name).replace(/ /g, '');
        const start = i % Math.max(1, compact.length - 4);
        return [
          compact.slice(start, start + 3 + (i % 4)),
          website.domain.slice(2, 9),
          // Dotted domain parts match domains only, never compact names.
          website.domain.slice(-10),
          website.name.split(' ')[0] ?? '',
        ];
      });
    expect(queries.length).toBeGreaterThan(200);
    for (const query of queries) {
      const expected = bruteForce(query).slice(0, 20);
      const actual = searchWebsites(data, { query, limit: 20, categoryIds: [], country: 'US' }).map(
        (w) => w.id,
      );
      expect(actual.slice(0, expected.length), query).toEqual(expected);
    }
  });
});
