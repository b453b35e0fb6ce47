import { z } from 'zod/v4';
import type { Clause, Collection, CollectionUpdate } from '../schemas/index.js';
import { defineCatalogTool } from './definition.js';

const idList = (what: string) => z.array(z.string()).describe(`Ids of ${what}; [] for none.`);

/** The four selectors of a clause, as the model gives them (empty arrays allowed). */
const clauseSelectors = {
  brand_ids: idList('brands (brand_id from the catalog search)'),
  website_ids: idList('retailer websites (website_id from either search)'),
  category_ids: idList('categories (category slugs from the catalog search)'),
  product_ids: idList('products (product_id from the catalog search)'),
};

/** Arguments the model gives `update_collection`. Every field is present; null means "leave as is". */
export const UpdateCollectionInputSchema = z.strictObject({
  collection_id: z.string().describe('Id of the collection to change.'),
  name: z.string().nullable().describe('New name; null to keep the current one.'),
  description: z.string().nullable().describe('New description; null to keep the current one.'),
  add_clauses: z
    .array(z.strictObject(clauseSelectors))
    .nullable()
    .describe('Clauses to add (the service assigns their clause_id); null for none.'),
  replace_clauses: z
    .array(
      z.strictObject({
        clause_id: z.string().describe('Id of the existing clause to replace.'),
        ...clauseSelectors,
      }),
    )
    .nullable()
    .describe('Existing clauses to overwrite, by clause_id; null for none.'),
  remove_clause_ids: z
    .array(z.string())
    .nullable()
    .describe('Ids of existing clauses to remove; null for none.'),
});
export type UpdateCollectionInput = z.infer<typeof UpdateCollectionInputSchema>;

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
