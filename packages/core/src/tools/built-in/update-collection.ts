import type { Clause, Collection, CollectionUpdate } from '../../schemas/index.js';
import { type CatalogToolClient, defineCatalogTool } from '../definition.js';
import { mayHaveApplied } from '../error-text.js';
import {
  type UpdateCollectionInput,
  UpdateCollectionInputSchema,
} from '../input/update-collection.js';
import { UpdateMemory } from './update-memory.js';

export type { UpdateCollectionInput };

/** What the application gets from `update_collection`: what was sent and the updated collection. */
export interface UpdateCollectionOutput {
  collectionId: string;
  update: CollectionUpdate;
  collection: Collection;
  /**
   * True when the model repeated an update that had just succeeded: it was not sent again,
   * and `collection` is the answer to the first call.
   */
  alreadyApplied?: true;
}

/**
 * One memory of sent updates per client: tools built on the same client (the same account)
 * share it, and each tool set built from client options has its own.
 */
const memories = new WeakMap<CatalogToolClient, UpdateMemory>();

function memoryOf(client: CatalogToolClient): UpdateMemory {
  let memory = memories.get(client);
  if (!memory) {
    memory = new UpdateMemory();
    memories.set(client, memory);
  }
  return memory;
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
    ...(output.alreadyApplied
      ? [
          'This exact update had just been applied, so it was not sent again (it would have applied twice). The collection after it:',
        ]
      : []),
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
      'When a call fails with an unknown outcome, the change may be in place: never repeat it; tell the user.',
    ].join(' '),
  inputSchema: UpdateCollectionInputSchema,
  mutates: true,
  async execute(input, { client, signal }) {
    const update = buildUpdate(input);
    const send = () =>
      client.collections.update(input.collection_id, update, signal ? { signal } : {});
    // A model that repeats an update (told to or not) must not apply it twice.
    const { collection, sent } = await memoryOf(client).run(
      input.collection_id,
      update,
      send,
      mayHaveApplied,
    );
    return {
      collectionId: input.collection_id,
      update,
      collection,
      ...(sent ? {} : { alreadyApplied: true as const }),
    };
  },
  toModelOutput: formatCollection,
});
