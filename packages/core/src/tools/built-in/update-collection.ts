import type { z } from 'zod/v4';
import {
  type Clause,
  type Collection,
  CollectionIdSchema,
  type CollectionUpdate,
  CollectionUpdateSchema,
  SELECTOR_KEYS,
} from '../../schemas/collections.js';
import { schema } from '../../schemas/define.js';
import { countOf } from '../catalog-view.js';
import { type CatalogToolResult, defineCatalogTool } from '../definition.js';
import { exactObject, list, listOf, modelInput, objectOf, text } from '../model-input.js';
import { sendGuarded } from './collection-guard.js';

const id = (what: string) => text(`an id of ${what}`);

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
  Object.fromEntries(SELECTOR_KEYS.map((key) => [key, listOf(undefined, { missing })]));

/** Most ids one update may select: the write-ahead record holds them all (split larger changes). */
const MAX_IDS_PER_UPDATE = 500;

const idsIn = (clauses: ReadonlyArray<Record<(typeof SELECTOR_KEYS)[number], string[]>> | null) =>
  (clauses ?? []).flatMap((clause) => SELECTOR_KEYS.flatMap((key) => clause[key])).length;

/** Arguments the model gives `update_collection` (null, or left out, means "leave as is"). */
export const UpdateCollectionInputSchema = /* @__PURE__ */ schema(() =>
  modelInput(
    exactObject({
      collection_id: text('the id of the collection to change', CollectionIdSchema).describe(
        'Id of the collection to change.',
      ),
      name: text('the new name, or null to keep the current one', CollectionUpdateSchema.shape.name)
        .nullable()
        .describe('New name; null to keep the current one.'),
      description: text(
        'the new description, or null to keep the current one',
        CollectionUpdateSchema.shape.description,
      )
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
      const { collection_id: _, ...changes } = value;
      if (Object.values(changes).some((change) => change !== null && change.length !== 0)) return;
      issues.push({
        code: 'custom',
        message: `give at least one change: ${Object.keys(changes).join(', ')} (an empty list changes nothing)`,
        input: value,
      });
    }),
    {
      add_clauses: listOf(objectOf(selectorsCoerced(true)), { lone: false }),
      replace_clauses: listOf(objectOf(selectorsCoerced(false)), { lone: false }),
      remove_clause_ids: listOf(),
    },
  ),
);
/** The input of `update_collection` once validated: every field present, `null` meaning "leave as is". */
export type UpdateCollectionInput = z.output<typeof UpdateCollectionInputSchema>;

/** What `update_collection` asked: the collection and the update sent for it. */
export interface UpdateCollectionRequest {
  collectionId: string;
  update: CollectionUpdate;
}

/** What the application gets from `update_collection`: the update sent and the collection. */
export type UpdateCollectionOutput = CatalogToolResult<UpdateCollectionRequest, Collection>;

/** Only the fields the model gave go on the wire: an absent field leaves the collection as is. */
function buildUpdate({ collection_id: _, ...fields }: UpdateCollectionInput): CollectionUpdate {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

/** The request `update_collection` sends for `input` as the model gives it; undefined: invalid. */
export function updateCollectionRequest(input: unknown): UpdateCollectionRequest | undefined {
  const parsed = UpdateCollectionInputSchema.safeParse(input);
  if (!parsed.success) return undefined;
  return { collectionId: parsed.data.collection_id, update: buildUpdate(parsed.data) };
}

function clauseLine(clause: Clause): string {
  const selectors = SELECTOR_KEYS.filter((key) => clause[key].length > 0).map(
    (key) => `${key} ${clause[key].join(', ')}`,
  );
  return `- clause_id ${clause.clause_id} | ${selectors.join(' | ') || 'selects nothing'}`;
}

/** The compact view: the collection's name, id and every clause with its ids. */
export function formatCollection(output: UpdateCollectionOutput): string {
  const collection = output.response;
  const name = collection.name === undefined ? '' : ` "${collection.name}"`;
  const clauses = countOf(collection.clauses?.length ?? 0, 'clause');
  return [
    `Updated collection${name} (collection_id ${collection.collection_id}); it has ${clauses}.`,
    ...(collection.description ? [`Description: ${collection.description}`] : []),
    ...(collection.clauses ?? []).map(clauseLine),
  ].join('\n');
}

/** `update_collection`: renames a collection and adds, replaces or removes clauses. Changes user data. */
export const updateCollectionTool = /* @__PURE__ */ defineCatalogTool<
  UpdateCollectionInput,
  UpdateCollectionOutput,
  'update_collection'
>({
  name: 'update_collection',
  description: (names) =>
    [
      'Change one of the user’s collections: rename it, change its description, and add, replace or remove clauses. Only call it when the user asked for the change.',
      'A clause selects items by brand_ids, website_ids, category_ids and product_ids (any may be []).',
      `Take product, brand, category and website ids from ${names.search_catalog}, or website ids from ${names.search_websites}; never invent ids.`,
      'Clause ids come from this tool’s previous output. The output lists the collection’s clauses after the change.',
      'When a call fails with an unknown outcome, the change may be in place: never repeat it, in any form; tell the user.',
    ].join(' '),
  inputSchema: UpdateCollectionInputSchema,
  mutates: true,
  async execute(input, { client, signal }) {
    const update = buildUpdate(input);
    const collectionId = input.collection_id;
    // Scoped to this client's service and key: another tenant sharing the store never refuses it.
    const scope = await client.storeScope();
    const response = await sendGuarded(
      { store: client.store, scope, collectionId },
      update,
      signal,
      () => client.collections.update(collectionId, update, signal ? { signal } : {}),
    );
    return { request: { collectionId, update }, response };
  },
  toModelOutput: formatCollection,
});
