import type { Clause, CollectionUpdate } from '../../schemas/index.js';
import type { CatalogStore } from '../../store/catalog-store.js';

/**
 * How long a write-ahead record outlives a process that died mid-send: after this the
 * collection accepts the same adds again (the shopper is told so in words).
 */
export const GUARD_RECORD_TTL_MS = 600_000; // 10 minutes

const SELECTOR_KEYS = ['brand_ids', 'website_ids', 'category_ids', 'product_ids'] as const;

/** Each selector an update adds, as `kind:id` (`product_ids:p1`), whatever the clause shape. */
export function addedSelectors(update: CollectionUpdate): string[] {
  const added = new Set<string>();
  for (const clause of update.add_clauses ?? []) {
    for (const key of SELECTOR_KEYS) for (const id of clause[key]) added.add(`${key}:${id}`);
  }
  return [...added].sort();
}

/** Why a change was refused: the unknown change it would repeat, told in words. */
export class GuardRefusal {
  constructor(
    readonly collectionId: string,
    readonly overlapping: readonly string[],
  ) {}

  /** The model's text: what is unknown, and what the shopper can do. */
  get message(): string {
    return [
      `An earlier change to collection ${this.collectionId} that adds ${this.overlapping.join(', ')} ended with an unknown outcome: it may be in place.`,
      'It was not sent again, in any form, so it cannot apply twice.',
      'Ask the shopper to check the collection; once an answer shows the collection, or after at most 10 minutes, the add can be made again if it is missing.',
    ].join(' ');
  }
}

/** What `begin` decided: send (and then call `settle`) or refuse. */
export type GuardDecision =
  | { send: true; settle: (outcomeKnown: boolean) => Promise<void> }
  | { send: false; refusal: GuardRefusal };

function recordKey(scope: string, collectionId: string): string {
  return `catalogkit:guard:${scope}:${collectionId}`;
}

function parseAdds(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The write-ahead guard of one collection (see ARCHITECTURE.md, "Changes guarded per
 * collection"). States per collection: none -> pending (record written, PATCH sent) ->
 * none (answer read, or failure proven before sending) | unknown (record left behind,
 * up to {@link GUARD_RECORD_TTL_MS}). Store cost: 1 set-if-absent + 1 delete on the common
 * path, + 1 get when a record exists: at most 3.
 */
export class CollectionGuard {
  constructor(private readonly store: CatalogStore) {}

  /**
   * Records, before the PATCH, the selectors the update adds; one atomic set-if-absent makes
   * this instance the collection's one writer. Updates adding nothing are safe to repeat and
   * write nothing.
   */
  async begin(
    scope: string,
    collectionId: string,
    update: CollectionUpdate,
  ): Promise<GuardDecision> {
    const adds = addedSelectors(update);
    if (adds.length === 0) return { send: true, settle: async () => {} };
    const key = recordKey(scope, collectionId);
    if (await this.store.setIfAbsent(key, JSON.stringify(adds), GUARD_RECORD_TTL_MS)) {
      return {
        send: true,
        settle: (known) => (known ? this.store.delete(key) : Promise.resolve()),
      };
    }
    const held = new Set(parseAdds((await this.store.get(key))?.value ?? '[]'));
    const overlapping = adds.filter((add) => held.has(add));
    // Another writer's record, or an unknown outcome, covers the collection: refuse when it
    // shares an add (or cannot be read), since that is the repeat that would apply twice.
    return {
      send: false,
      refusal: new GuardRefusal(collectionId, overlapping.length ? overlapping : adds),
    };
  }

  /**
   * Learns from an answer holding the collection's clauses: when every recorded add is
   * there, the unknown change landed and the record is cleared.
   */
  async learn(scope: string, collectionId: string, clauses: readonly Clause[]): Promise<void> {
    const key = recordKey(scope, collectionId);
    const held = await this.store.get(key);
    if (held === undefined) return;
    const seen = new Set(addedSelectors({ add_clauses: [...clauses] }));
    if (parseAdds(held.value).every((add) => seen.has(add))) await this.store.delete(key);
  }
}
