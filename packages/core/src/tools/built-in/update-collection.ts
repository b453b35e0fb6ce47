import type { Clause, Collection, CollectionUpdate, NewClause } from '../../schemas/index.js';
import { defineCatalogTool } from '../definition.js';
import {
  type UpdateCollectionInput,
  UpdateCollectionInputSchema,
} from '../input/update-collection.js';
import { countOf } from '../plural.js';
import type { CatalogToolResult } from '../result.js';
import { CollectionGuard, failedBeforeSending, SELECTOR_KEYS } from './collection-guard.js';

export type { UpdateCollectionInput };

/** What `update_collection` asked: the collection and the update sent for it. */
export interface UpdateCollectionRequest {
  collectionId: string;
  /** The update as sent. */
  update: CollectionUpdate;
}

/**
 * What the application gets from `update_collection`: what was sent (`request`) and the
 * updated collection (`response`).
 */
export type UpdateCollectionOutput = CatalogToolResult<UpdateCollectionRequest, Collection>;

/** Only the fields the model gave go on the wire: an absent field leaves the collection as is. */
function buildUpdate(input: UpdateCollectionInput): CollectionUpdate {
  const update: CollectionUpdate = {};
  if (input.name !== null) update.name = input.name;
  if (input.description !== null) update.description = input.description;
  if (input.add_clauses !== null) update.add_clauses = input.add_clauses;
  if (input.replace_clauses !== null) update.replace_clauses = input.replace_clauses;
  if (input.remove_clause_ids !== null) update.remove_clause_ids = input.remove_clause_ids;
  return update;
}

/**
 * The request `update_collection` would send for `input` (as the model gives it, before the
 * clauses the collection already holds are left out), or `undefined` when the input is not
 * a valid `update_collection` input. The testing kit compares an approved input with what
 * reached the service through this one builder.
 */
export function updateCollectionRequest(input: unknown): UpdateCollectionRequest | undefined {
  const parsed = UpdateCollectionInputSchema.safeParse(input);
  if (!parsed.success) return undefined;
  return { collectionId: parsed.data.collection_id, update: buildUpdate(parsed.data) };
}

function selectorsText(clause: NewClause): string {
  const selectors = SELECTOR_KEYS.filter((key) => clause[key].length > 0).map(
    (key) => `${key} ${clause[key].join(', ')}`,
  );
  return selectors.length ? selectors.join(' | ') : 'selects nothing';
}

function clauseLine(clause: Clause): string {
  return `- clause_id ${clause.clause_id} | ${selectorsText(clause)}`;
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
  async execute(input, context) {
    const { client, signal } = context;
    const update = buildUpdate(input);
    const request = { collectionId: input.collection_id, update };
    // Only what this client's service and key learnt: another tenant or service sharing the
    // store must never refuse this call.
    const guard = new CollectionGuard(
      context.store ?? client.store,
      await client.storeScope(),
      input.collection_id,
    );
    // Write-ahead: an update that adds or replaces clauses is recorded before it is sent, and
    // kept while its outcome is unknown, so no repeat of it, in any shape, is sent meanwhile.
    const settle = await guard.begin(update, signal);
    let response: Collection;
    try {
      response = await client.collections.update(
        input.collection_id,
        update,
        signal ? { signal } : {},
      );
    } catch (error) {
      await settle(failedBeforeSending(error));
      throw error;
    }
    await settle(true);
    return { request, response };
  },
  toModelOutput: formatCollection,
});
