import type { SeededRandom } from '../random.js';
import { CATEGORY_DEFINITIONS } from './categories.js';
import type { WebsiteRecord } from './websites.js';

/** How many websites per category are searchable with `category_ids` (the contract's scope). */
export const CATEGORY_TOP_SIZE = 1000;

/** For each category slug, the indexes of its top websites in rank order (best first). */
export type CategoryTopLists = Map<string, number[]>;

/**
 * Ranks every category's sellers and keeps the best CATEGORY_TOP_SIZE. Specialists get a
 * boost so that a small running shop can outrank a big department store in running shoes.
 */
export function rankCategories(
  rng: SeededRandom,
  websites: readonly WebsiteRecord[],
): CategoryTopLists {
  const lists: CategoryTopLists = new Map();
  for (const category of CATEGORY_DEFINITIONS) {
    const scored: { index: number; score: number }[] = [];
    websites.forEach((website, index) => {
      if (!website.categories.includes(category.slug)) return;
      const affinity = website.vertical === category.vertical ? 1.6 : 1;
      scored.push({ index, score: website.popularity * affinity * (0.75 + rng.next() * 0.5) });
    });
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    lists.set(
      category.slug,
      scored.slice(0, CATEGORY_TOP_SIZE).map((entry) => entry.index),
    );
  }
  return lists;
}
