import type { CollectionUpdate, ValidationIssue } from '@catalogkit/core';
import { CollectionUpdateSchema } from '@catalogkit/core/schemas';
import type { Context } from 'hono';
import type { EmulatorContext } from '../context.js';
import type { StoredClause, StoredCollection } from '../data/collections.js';
import type { RestVariables } from './auth.js';
import { detailError, validationError } from './errors.js';
import { validatedBody } from './read-json.js';

/** Same body for "does not exist" and "belongs to someone else": existence is never revealed. */
export const COLLECTION_NOT_FOUND_DETAIL = 'Collection not found.';

/** Every clause id the update refers to must exist, and at most once (atomic: nothing is applied otherwise). */
function clauseIdIssues(collection: StoredCollection, update: CollectionUpdate): ValidationIssue[] {
  const existing = new Set(collection.clauses.map((clause) => clause.clause_id));
  const seen = new Set<string>();
  const check = (id: string, loc: (string | number)[]): ValidationIssue[] => {
    if (!existing.has(id)) {
      return [
        {
          loc,
          msg: `Unknown clause id '${id}' in collection '${collection.collection_id}'`,
          type: 'unknown_clause_id',
        },
      ];
    }
    if (seen.has(id))
      return [
        { loc, msg: `Clause id '${id}' is given more than once`, type: 'duplicate_clause_id' },
      ];
    seen.add(id);
    return [];
  };
  return [
    ...(update.replace_clauses ?? []).flatMap((clause, i) =>
      check(clause.clause_id, ['body', 'replace_clauses', i, 'clause_id']),
    ),
    ...(update.remove_clause_ids ?? []).flatMap((id, i) =>
      check(id, ['body', 'remove_clause_ids', i]),
    ),
  ];
}

const copyClause = (clause: Omit<StoredClause, 'clause_id'>, clauseId: string): StoredClause => ({
  clause_id: clauseId,
  brand_ids: [...clause.brand_ids],
  website_ids: [...clause.website_ids],
  category_ids: [...clause.category_ids],
  product_ids: [...clause.product_ids],
});

/** `updated_at` always moves forward, even when the (injected) clock stands still. */
function nextTimestamp(previous: string, now: Date): string {
  const last = Date.parse(previous);
  return new Date(Math.max(now.getTime(), last + 1)).toISOString();
}

function applyUpdate(
  emulator: EmulatorContext,
  collection: StoredCollection,
  update: CollectionUpdate,
): void {
  const removed = new Set(update.remove_clause_ids ?? []);
  const replacements = new Map(
    (update.replace_clauses ?? []).map((clause) => [clause.clause_id, clause]),
  );
  collection.clauses = collection.clauses
    .filter((clause) => !removed.has(clause.clause_id))
    .map((clause) => {
      const replacement = replacements.get(clause.clause_id);
      return replacement ? copyClause(replacement, clause.clause_id) : clause;
    });
  for (const clause of update.add_clauses ?? []) {
    collection.clauses.push(copyClause(clause, emulator.state.nextId('cl_')));
  }
  if (update.name !== undefined) collection.name = update.name;
  if (update.description !== undefined) collection.description = update.description;
  collection.updated_at = nextTimestamp(collection.updated_at, emulator.now());
}

/** `PATCH /v1/collections/{collection_id}`. */
export function collectionUpdateHandler(emulator: EmulatorContext) {
  return async (c: Context<{ Variables: RestVariables }>): Promise<Response> => {
    const body = await validatedBody(c, CollectionUpdateSchema);
    if (!body.ok) return body.response;
    const collection = emulator.state.collections.get(c.req.param('collection_id') ?? '');
    if (!collection || collection.user_id !== c.get('userId')) {
      return detailError(c, 404, COLLECTION_NOT_FOUND_DETAIL);
    }
    const issues = clauseIdIssues(collection, body.data);
    if (issues.length > 0) return validationError(c, issues);
    applyUpdate(emulator, collection, body.data);
    return c.json(structuredClone(collection));
  };
}
