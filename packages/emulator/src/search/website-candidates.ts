import type { CatalogData } from '../data/index.js';
import { type WebsiteKeys, websiteIndex } from './website-index.js';

/** Lookup structures over the popularity-ordered website keys, built once per catalog. */
interface CandidateIndex {
  /** Trigram → positions (in popularity order) of websites whose compact name or domain contains it. */
  trigrams: Map<string, number[]>;
  /** First letter of the compact name or domain label → positions (fuzzy candidates). */
  byFirstLetter: Map<string, number[]>;
}

const indexes = new WeakMap<CatalogData, CandidateIndex>();

function addPosting(map: Map<string, number[]>, key: string, position: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [position]);
  else if (list[list.length - 1] !== position) list.push(position);
}

function build(keys: readonly WebsiteKeys[]): CandidateIndex {
  const trigrams = new Map<string, number[]>();
  const byFirstLetter = new Map<string, number[]>();
  keys.forEach((entry, position) => {
    for (const text of [entry.compactName, entry.domain]) {
      for (let i = 0; i + 3 <= text.length; i++)
        addPosting(trigrams, text.slice(i, i + 3), position);
    }
    addPosting(byFirstLetter, entry.compactName.charAt(0), position);
    addPosting(byFirstLetter, entry.domainLabel.charAt(0), position);
  });
  return { trigrams, byFirstLetter };
}

function candidateIndex(data: CatalogData): CandidateIndex {
  let index = indexes.get(data);
  if (!index) {
    index = build(websiteIndex(data));
    indexes.set(data, index);
  }
  return index;
}

/** The shortest posting list among the text's trigrams; undefined when the text is too short to use them. */
function rarestPostings(index: CandidateIndex, text: string): readonly number[] | undefined {
  if (text.length < 3) return undefined;
  let rarest: readonly number[] | undefined;
  for (let i = 0; i + 3 <= text.length; i++) {
    const list = index.trigrams.get(text.slice(i, i + 3)) ?? [];
    if (!rarest || list.length < rarest.length) rarest = list;
    if (list.length === 0) break;
  }
  return rarest;
}

/**
 * Positions (ascending, i.e. most popular first) of the websites that may contain the
 * compact query in their name or the domain query in their domain: a superset that the
 * caller verifies. Undefined means "scan everything" (queries under three characters).
 */
export function substringCandidates(
  data: CatalogData,
  compact: string,
  domain: string,
): number[] | undefined {
  const index = candidateIndex(data);
  const byName = rarestPostings(index, compact);
  const byDomain = domain === '' ? [] : rarestPostings(index, domain);
  if (!byName || !byDomain) return undefined;
  const merged = new Set([...byName, ...byDomain]);
  return [...merged].sort((a, b) => a - b);
}

/** Positions of websites whose name or domain label starts with the letter (fuzzy candidates). */
export function sameFirstLetter(data: CatalogData, letter: string): readonly number[] {
  return candidateIndex(data).byFirstLetter.get(letter) ?? [];
}
