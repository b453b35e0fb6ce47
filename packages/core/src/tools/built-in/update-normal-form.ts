import type { CollectionUpdate, NewClause, ReplacementClause } from '../../schemas/index.js';

/*
 * The one form of a collection update that is both sent and remembered. A model says the
 * same change in many ways (`[]` where it means "no change", an id twice, clauses in
 * another order); if each spelling were remembered apart, a repeat spelled differently
 * after an unknown outcome would be sent again and applied twice. So the update is put in
 * one form first, and exactly that form is fingerprinted and sent.
 */

/** Ids as a set: duplicates dropped, sorted (a clause selects the same with any order). */
function idSet(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

/** A clause's selectors as sets, in the wire's key order. */
function selectorsOf(clause: NewClause): NewClause {
  return {
    brand_ids: idSet(clause.brand_ids),
    website_ids: idSet(clause.website_ids),
    category_ids: idSet(clause.category_ids),
    product_ids: idSet(clause.product_ids),
  };
}

/**
 * Clauses as a set: identical ones kept once (adding the same clause twice only duplicates
 * it, never what a shopper asks for), ordered by their text (the order in which clauses are
 * added or replaced does not change what the collection selects).
 */
function clauseSet<T extends NewClause>(clauses: readonly T[]): T[] {
  const byText = new Map<string, T>();
  for (const clause of clauses) byText.set(JSON.stringify(clause), clause);
  return [...byText.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, clause]) => clause);
}

function normalReplacement(clause: ReplacementClause): ReplacementClause {
  return { clause_id: clause.clause_id, ...selectorsOf(clause) };
}

/**
 * The normal form of `update`: empty change lists left out (`[]` changes nothing), id lists
 * as sorted sets, clause lists as sorted sets of clauses with sorted selectors, keys in the
 * wire's order. Two updates that do the same get the same form; the form does what the
 * update did. May return `{}` when nothing is left: the caller refuses that as no change.
 */
export function normalizeUpdate(update: CollectionUpdate): CollectionUpdate {
  const normal: CollectionUpdate = {};
  if (update.name !== undefined) normal.name = update.name;
  if (update.description !== undefined) normal.description = update.description;
  const add = clauseSet((update.add_clauses ?? []).map(selectorsOf));
  if (add.length > 0) normal.add_clauses = add;
  const replace = clauseSet((update.replace_clauses ?? []).map(normalReplacement));
  if (replace.length > 0) normal.replace_clauses = replace;
  const remove = idSet(update.remove_clause_ids ?? []);
  if (remove.length > 0) normal.remove_clause_ids = remove;
  return normal;
}
