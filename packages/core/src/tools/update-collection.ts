import type { Clause, Collection, CollectionUpdate } from '../schemas/index.js';
import { defineCatalogTool } from './definition.js';
import {
  type UpdateCollectionInput,
  UpdateCollectionInputSchema,
} from './input/update-collection.js';

export type { UpdateCollectionInput };

/** What the application gets from `update_collection`: what was sent and the updated collection. */
export interface UpdateCollectionOutput {
  collectionId: string;
  update: CollectionUpdate;
  collection: Collection;
}

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

const SELECTOR_KEYS = ['brand_ids', 'website_ids', 'category_ids', 'product_ids'] as const;

function clauseLine(clause: Clause): string {
  const selectors = SELECTOR_KEYS.filter((key) => clause[key].length > 0).map(
    (key) => `${key} ${clause[key].join(', ')}`,
  );
  return `- clause_id ${clause.clause_id} | ${selectors.length ? selectors.join(' | ') : 'selects nothing'}`;
}

/** The compact view: the collection's name, id and every clause with its ids. */
export function formatCollection(output: UpdateCollectionOutput): string {
  const { collection } = output;
  const clauses = collection.clauses ?? [];
  const name = collection.name === undefined ? '' : ` "${collection.name}"`;
  return [
    `Updated collection${name} (collection_id ${collection.collection_id}); it has ${clauses.length} clauses.`,
    ...(collection.description ? [`Description: ${collection.description}`] : []),
    ...clauses.map(clauseLine),
  ].join('\n');
}

/** `update_collection`: renames a collection and adds, replaces or removes clauses. Changes user data. */
export const updateCollectionTool = defineCatalogTool<
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
    ].join(' '),
  inputSchema: UpdateCollectionInputSchema,
  mutates: true,
  async execute(input, { client, signal }) {
    const update = buildUpdate(input);
    const collection = await client.collections.update(
      input.collection_id,
      update,
      signal ? { signal } : {},
    );
    return { collectionId: input.collection_id, update, collection };
  },
  toModelOutput: formatCollection,
});
