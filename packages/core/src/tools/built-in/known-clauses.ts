import type { Collection, CollectionUpdate, NewClause } from '../../schemas/index.js';

/** The four selectors of a clause, in the order the views print them. */
export const SELECTOR_KEYS = ['brand_ids', 'website_ids', 'category_ids', 'product_ids'] as const;
type SelectorKey = (typeof SELECTOR_KEYS)[number];

/** An update with the clauses to add that the collection already has taken out. */
interface UpdateWithoutKnownClauses {
  /** What is left to send; `{}` when nothing is. */
  update: CollectionUpdate;
  /** What was taken out of `add_clauses`: whole clauses, or the ids of a one-kind clause. */
  alreadySelected: NewClause[];
}

const EMPTY_CLAUSE: NewClause = {
  brand_ids: [],
  website_ids: [],
  category_ids: [],
  product_ids: [],
};

/** A clause's selectors as sets, in one text: two clauses that select alike share it. */
function selectionKey(clause: NewClause): string {
  return JSON.stringify(SELECTOR_KEYS.map((key) => [...new Set(clause[key])].sort()));
}

/** The one selector a clause uses (e.g. only `product_ids`), or undefined for none or several. */
function soleSelector(clause: NewClause): SelectorKey | undefined {
  const used = SELECTOR_KEYS.filter((key) => clause[key].length > 0);
  return used.length === 1 ? used[0] : undefined;
}

/**
 * What a collection selects, as far as clause semantics are certain: whole clauses by their
 * selector sets, and the ids of clauses that use one selector only (a clause of product ids
 * selects each of them, however the service combines selectors of different kinds).
 */
class KnownSelection {
  readonly #clauses = new Set<string>();
  readonly #single = new Map<SelectorKey, Set<string>>();

  add(clause: NewClause): void {
    this.#clauses.add(selectionKey(clause));
    const key = soleSelector(clause);
    if (key === undefined) return;
    const ids = this.#single.get(key) ?? new Set<string>();
    for (const id of clause[key]) ids.add(id);
    this.#single.set(key, ids);
  }

  /** The part of `clause` still to add, and the part already selected. */
  split(clause: NewClause): { toAdd?: NewClause; known?: NewClause } {
    if (this.#clauses.has(selectionKey(clause))) return { known: clause };
    const key = soleSelector(clause);
    if (key === undefined) return { toAdd: clause };
    const selected = this.#single.get(key) ?? new Set<string>();
    const known = [...new Set(clause[key].filter((id) => selected.has(id)))];
    if (known.length === 0) return { toAdd: clause };
    const rest = [...new Set(clause[key].filter((id) => !selected.has(id)))];
    return {
      ...(rest.length === 0 ? {} : { toAdd: { ...EMPTY_CLAUSE, [key]: rest } }),
      known: { ...EMPTY_CLAUSE, [key]: known },
    };
  }
}

/** The clauses the collection holds once the update's removals and replacements are done. */
function standingClauses(collection: Collection, update: CollectionUpdate): NewClause[] {
  const replacements = update.replace_clauses ?? [];
  const gone = new Set([
    ...(update.remove_clause_ids ?? []),
    ...replacements.map((clause) => clause.clause_id),
  ]);
  const kept = (collection.clauses ?? []).filter((clause) => !gone.has(clause.clause_id));
  return [...kept, ...replacements];
}

/**
 * Takes out of `update.add_clauses` what `collection` (the last known state) already selects,
 * and repeats within the update, so adding the same products again does not create duplicate
 * clauses. Without a known state, or with nothing to add, the update is returned as it is.
 */
export function withoutKnownClauses(
  collection: Collection | undefined,
  update: CollectionUpdate,
): UpdateWithoutKnownClauses {
  const adding = update.add_clauses;
  if (collection === undefined || adding === undefined || adding.length === 0) {
    return { update, alreadySelected: [] };
  }
  const selection = new KnownSelection();
  for (const clause of standingClauses(collection, update)) selection.add(clause);
  const toAdd: NewClause[] = [];
  const alreadySelected: NewClause[] = [];
  for (const clause of adding) {
    const parts = selection.split(clause);
    if (parts.known) alreadySelected.push(parts.known);
    if (parts.toAdd) {
      toAdd.push(parts.toAdd);
      selection.add(parts.toAdd);
    }
  }
  if (alreadySelected.length === 0) return { update, alreadySelected };
  const { add_clauses: _sent, ...rest } = update;
  return { update: toAdd.length === 0 ? rest : { ...rest, add_clauses: toAdd }, alreadySelected };
}
