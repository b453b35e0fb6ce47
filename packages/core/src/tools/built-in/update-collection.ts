import type { Clause, Collection, CollectionUpdate } from '../../schemas/index.js';
import { defineCatalogTool } from '../definition.js';
import {
  type UpdateCollectionInput,
  UpdateCollectionInputSchema,
} from '../input/update-collection.js';
import { countOf } from '../plural.js';
import type { CatalogToolResult } from '../result.js';
import { CollectionGuard, SELECTOR_KEYS } from './collection-guard.js';

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
function buildUpdate({ collection_id: _, ...fields }: UpdateCollectionInput): CollectionUpdate {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

/**
 * The request `update_collection` sends for `input` (as the model gives it), or `undefined`
 * when the input is not valid: the testing kit compares an approved input with what reached
 * the service through this one builder.
 */
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
  async execute(input, context) {
    const { client, signal } = context;
    const update = buildUpdate(input);
    const collectionId = input.collection_id;
    // Scoped to this client's service and key: another tenant sharing the store never refuses
    // this call. Write-ahead: an update that adds or replaces clauses is recorded before it is
    // sent, and kept while its outcome is unknown, so no repeat of it, in any shape, is sent.
    const guard = new CollectionGuard(
      context.store ?? client.store,
      await client.storeScope(),
      collectionId,
    );
    const response = await guard.send(update, signal, () =>
      client.collections.update(collectionId, update, signal ? { signal } : {}),
    );
    return { request: { collectionId, update }, response };
  },
  toModelOutput: formatCollection,
});
