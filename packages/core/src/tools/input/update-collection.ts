import type { z } from 'zod/v4';
import { CollectionIdSchema, CollectionUpdateSchema } from '../../schemas/collections.js';
import { schema } from '../../schemas/define.js';
import { SELECTOR_KEYS } from '../built-in/collection-guard.js';
import { emptyWhenMissing, listOf, objectOf, trimmed } from './coerce.js';
import { exactObject, list, modelInput, text } from './fields.js';

const id = (what: string) => text({ what: `an id of ${what}`, empty: `give an id of ${what}` });

const idList = (what: string, source: string) =>
  list(id(what), `ids of ${what}`).describe(`Ids of ${what} (${source}); [] for none.`);

/** The four selectors of a clause, as the model gives them (empty lists allowed). */
const clauseSelectors = /* @__PURE__ */ schema(() => ({
  brand_ids: idList('brands', 'brand_id from the catalog search'),
  website_ids: idList('retailer websites', 'website_id from either search'),
  category_ids: idList('categories', 'category slugs from the catalog search'),
  product_ids: idList('products', 'product_id from the catalog search'),
}));

/**
 * A new clause's missing selector selects nothing (`[]`); a replacement's stays required:
 * it overwrites the whole clause, so a missing one could mean "keep" or "clear".
 */
const selectorsCoerced = (missing: boolean) =>
  Object.fromEntries(
    SELECTOR_KEYS.map((key) => [
      key,
      missing ? emptyWhenMissing(listOf(trimmed)) : listOf(trimmed),
    ]),
  );

/** The changes of an update; at least one must be given. */
const CHANGE_KEYS = [
  'name',
  'description',
  'add_clauses',
  'replace_clauses',
  'remove_clause_ids',
] as const;

/** Most ids one update may select: the write-ahead record holds them all (split larger changes). */
const MAX_IDS_PER_UPDATE = 500;

const idsIn = (clauses: ReadonlyArray<Record<(typeof SELECTOR_KEYS)[number], string[]>> | null) =>
  (clauses ?? []).reduce(
    (sum, clause) => sum + SELECTOR_KEYS.reduce((n, key) => n + clause[key].length, 0),
    0,
  );

/**
 * Arguments the model gives `update_collection`. The JSON Schema lists every field (null
 * means "leave as is"); a model may also leave them out, give a lone id for a list of one,
 * or leave out a new clause's empty selectors.
 */
export const UpdateCollectionInputSchema = /* @__PURE__ */ schema(() =>
  modelInput(
    {
      collection_id: trimmed,
      name: trimmed,
      description: trimmed,
      add_clauses: listOf(objectOf(selectorsCoerced(true)), false),
      replace_clauses: listOf(objectOf({ clause_id: trimmed, ...selectorsCoerced(false) }), false),
      remove_clause_ids: listOf(trimmed),
    },
    exactObject({
      collection_id: text({
        what: 'the id of the collection to change',
        empty: 'give the id of the collection to change',
        rule: CollectionIdSchema,
      }).describe('Id of the collection to change.'),
      name: text({
        what: 'the new name',
        empty: 'use null to keep the current name',
        rule: CollectionUpdateSchema.shape.name,
      })
        .nullable()
        .describe('New name; null to keep the current one.'),
      description: text({
        what: 'the new description',
        empty: 'use null to keep the current description',
        rule: CollectionUpdateSchema.shape.description,
      })
        .nullable()
        .describe('New description; null to keep the current one.'),
      add_clauses: list(exactObject(clauseSelectors), 'clauses')
        .nullable()
        .describe('Clauses to add (the service assigns their clause_id); null for none.'),
      replace_clauses: list(
        exactObject({
          clause_id: id('the clause to replace').describe('Id of the existing clause to replace.'),
          ...clauseSelectors,
        }),
        'clauses',
      )
        .nullable()
        .describe('Existing clauses to overwrite, by clause_id; null for none.'),
      remove_clause_ids: list(id('a clause to remove'), 'clause ids')
        .nullable()
        .describe('Ids of existing clauses to remove; null for none.'),
    }).check(({ value, issues }) => {
      const added = idsIn(value.add_clauses);
      const ids = added + idsIn(value.replace_clauses);
      if (ids > MAX_IDS_PER_UPDATE) {
        issues.push({
          code: 'custom',
          path: [added > 0 ? 'add_clauses' : 'replace_clauses'],
          message: `selects ${ids} ids in add_clauses and replace_clauses together; at most ${MAX_IDS_PER_UPDATE} per call: split the change into several calls`,
          input: value,
        });
      }
      // A field changes something when given and not an empty list (`[]` is left out when sent).
      if (CHANGE_KEYS.some((key) => value[key] !== null && value[key]?.length !== 0)) return;
      issues.push({
        code: 'custom',
        message: `give at least one change: ${CHANGE_KEYS.join(', ')} (an empty list changes nothing)`,
        input: value,
      });
    }),
  ),
);
/** The input of `update_collection` once validated: every field present, `null` meaning "leave as is". */
export type UpdateCollectionInput = z.output<typeof UpdateCollectionInputSchema>;
