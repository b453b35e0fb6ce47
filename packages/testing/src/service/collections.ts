import type { StoredClause, StoredCollection } from '@catalogkit/emulator';

/** How many times each collection holds each clause (by what it selects), by collection id. */
export type CollectionsSnapshot = ReadonlyMap<string, ReadonlyMap<string, number>>;

const SELECTORS = ['product_ids', 'brand_ids', 'website_ids', 'category_ids'] as const;

/**
 * What a clause selects, as one text (ids deduplicated and sorted, so the order or repeats the
 * model wrote are moot).
 */
export function clauseSelection(clause: StoredClause): string {
  return SELECTORS.filter((key) => clause[key].length > 0)
    .map((key) => `${key} ${[...new Set(clause[key])].sort().join(', ')}`)
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

/** How many clauses select each id (`product_ids prod_1`), from clause counts, per collection. */
export function selectedItems(snapshot: CollectionsSnapshot): CollectionsSnapshot {
  return new Map(
    [...snapshot].map(([id, clauses]) => {
      const counts = new Map<string, number>();
      for (const [selection, times] of clauses) {
        for (const part of selection.split(' | ')) {
          const [key, ids = ''] = part.split(/ (.*)/s);
          for (const item of ids.split(', ')) {
            const name = `${key} ${item}`;
            counts.set(name, (counts.get(name) ?? 0) + times);
          }
        }
      }
      return [id, counts];
    }),
  );
}
