import type { CatalogData, WebsiteRecord } from '../data/index.js';

/** Normalized search keys of one website. */
export interface WebsiteKeys {
  index: number;
  website: WebsiteRecord;
  /** "fell and trail" */
  name: string;
  /** "fellandtrail" */
  compactName: string;
  /** ["fell", "and", "trail"] */
  words: string[];
  /** Offsets in `compactName` where a word starts: [0, 4, 7] */
  wordStarts: Set<number>;
  /** "fellandtrail.co.uk" */
  domain: string;
  /** "fellandtrail" */
  domainLabel: string;
}

/** Lowercase words: "&" reads as "and", other punctuation separates. */
export const normalizeName = (text: string): string =>
  text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** A domain from a query that may be a URL: scheme, `www.`, path and port are dropped. */
export const normalizeDomain = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#:].*$/, '');

const indexes = new WeakMap<CatalogData, WebsiteKeys[]>();

/** Search keys of every website, most popular first (the tie-break order of results). */
export function websiteIndex(data: CatalogData): WebsiteKeys[] {
  let keys = indexes.get(data);
  if (!keys) {
    keys = data.websites
      .map((website, index) => {
        const name = normalizeName(website.name);
        const words = name.split(' ');
        let offset = 0;
        const wordStarts = new Set<number>();
        for (const word of words) {
          wordStarts.add(offset);
          offset += word.length;
        }
        return {
          index,
          website,
          name,
          compactName: name.replace(/ /g, ''),
          words,
          wordStarts,
          domain: website.domain,
          domainLabel: website.domain.split('.')[0] ?? website.domain,
        };
      })
      .sort((a, b) => b.website.popularity - a.website.popularity || a.index - b.index);
    indexes.set(data, keys);
  }
  return keys;
}
