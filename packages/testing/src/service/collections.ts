import type { StoredClause, StoredCollection } from '@catalogkit/emulator';

/** How many times each collection holds each clause (by what it selects), by collection id. */
export type CollectionsSnapshot = ReadonlyMap<string, ReadonlyMap<string, number>>;

const SELECTORS = ['product_ids', 'brand_ids', 'website_ids', 'category_ids'] as const;

/** What a clause selects, as one text (ids sorted, so the order the model wrote them is moot). */
export function clauseSelection(clause: StoredClause): string {
  return SELECTORS.filter((key) => clause[key].length > 0)
    .map((key) => `${key} ${[...clause[key]].sort().join(', ')}`)
    .join(' | ');
}

function clauseCounts(collection: StoredCollection): Map<string, number> {
  const counts = new Map<string, number>();
  for (const clause of collection.clauses) {
    const selection = clauseSelection(clause);
    counts.set(selection, (counts.get(selection) ?? 0) + 1);
  }
  return counts;
}

/** The clauses each collection holds now, counted by what they select. */
export function snapshotCollections(
  collections: ReadonlyMap<string, StoredCollection>,
): CollectionsSnapshot {
  return new Map([...collections].map(([id, collection]) => [id, clauseCounts(collection)]));
}
