import type { Clause, Collection, CollectionUpdate, NewClause } from '../../schemas/index.js';
import { type CatalogToolClient, defineCatalogTool } from '../definition.js';
import { mayHaveApplied } from '../error-text.js';
import {
  type UpdateCollectionInput,
  UpdateCollectionInputSchema,
} from '../input/update-collection.js';
import { countOf } from '../plural.js';
import type { CatalogToolResult } from '../result.js';
import { SELECTOR_KEYS, withoutKnownClauses } from './known-clauses.js';
import { KNOWN_STATE_MAX_AGE_MS, UpdateMemory } from './update-memory.js';

export type { UpdateCollectionInput };

/** What `update_collection` asked: the collection and the update sent for it. */
export interface UpdateCollectionRequest {
  collectionId: string;
  /** The update as sent: `{}` when nothing was left to send (see `alreadySelected`). */
  update: CollectionUpdate;
}

/**
 * What the application gets from `update_collection`: what was sent (`request`) and the
 * updated collection (`response`). Two facts that are neither what was asked nor what came
 * back, but that the model and the application must both learn (and that must survive a
 * stored history), are told beside them, only when they hold.
 */
export interface UpdateCollectionOutput
  extends CatalogToolResult<UpdateCollectionRequest, Collection> {
  /**
   * True when the model repeated an update that had just succeeded: it was not sent again,
   * and `response` is the answer to the first call.
   */
  alreadyApplied?: true;
  /**
   * Clauses (or ids of one-kind clauses) the model asked to add that the collection, as its
   * last answer showed it, already selects: they were not added again. When nothing else
   * was asked, nothing was sent, `request.update` is `{}` and `response` is that last answer.
   */
  alreadySelected?: NewClause[];
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

function selectorsText(clause: NewClause): string {
  const selectors = SELECTOR_KEYS.filter((key) => clause[key].length > 0).map(
    (key) => `${key} ${clause[key].join(', ')}`,
  );
  return selectors.length ? selectors.join(' | ') : 'selects nothing';
}

function clauseLine(clause: Clause): string {
  return `- clause_id ${clause.clause_id} | ${selectorsText(clause)}`;
}

/**
 * What the model is told of the clauses it asked for that the collection already had. Never
 * as a certainty: another writer may have changed the collection since that answer.
 */
function alreadySelectedLines(output: UpdateCollectionOutput): string[] {
  const known = output.alreadySelected ?? [];
  if (known.length === 0) return [];
  const at = output.response.updated_at;
  return [
    `As of the collection's last answer${at === undefined ? '' : ` (updated_at ${at})`}, it already selected ${known.map(selectorsText).join('; ')}, so that was not added again.`,
    `A change made elsewhere since then would not show here: if the shopper says it is missing, it may have been removed elsewhere: say so, and add it again after a minute if they ask (only a recent answer is trusted for this check).`,
  ];
}

function headLine(output: UpdateCollectionOutput): string {
  const collection = output.response;
  const name = collection.name === undefined ? '' : ` "${collection.name}"`;
  const clauses = countOf(collection.clauses?.length ?? 0, 'clause');
  if (Object.keys(output.request.update).length === 0) {
    return `Nothing was sent, so nothing changed. Collection${name} (collection_id ${collection.collection_id}) as last seen; it has ${clauses}.`;
  }
  return `Updated collection${name} (collection_id ${collection.collection_id}); it has ${clauses}.`;
}

/** The compact view: the collection's name, id and every clause with its ids. */
export function formatCollection(output: UpdateCollectionOutput): string {
  const collection = output.response;
  return [
    ...(output.alreadyApplied
      ? [
          'This exact update had just been applied, so it was not sent again (it would have applied twice). The collection after it:',
        ]
      : []),
    ...alreadySelectedLines(output),
    headLine(output),
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
      'Clause ids come from this tool’s previous output. The output lists the collection’s clauses after the change; clauses the collection already has are not added twice (the output says so).',
      'When a call fails with an unknown outcome, the change may be in place: never repeat it; tell the user.',
    ].join(' '),
  inputSchema: UpdateCollectionInputSchema,
  mutates: true,
  async execute(input, { client, signal }) {
    const memory = memoryOf(client);
    // Clauses the collection already has are not added again (a model that adds the same
    // products twice would otherwise create duplicates), judged only from a recent answer
    // and never while an update of it is unanswered: the worst a missed match costs is a
    // duplicate clause, while a wrong one drops what the shopper asked for.
    const known = memory.lastKnownState(input.collection_id, KNOWN_STATE_MAX_AGE_MS);
    const { update, alreadySelected } = withoutKnownClauses(known, buildUpdate(input));
    const skipped = alreadySelected.length === 0 ? {} : { alreadySelected };
    const request = { collectionId: input.collection_id, update };
    if (known !== undefined && Object.keys(update).length === 0) {
      return { request, response: known, ...skipped };
    }
    const send = () =>
      client.collections.update(input.collection_id, update, signal ? { signal } : {});
    // A model that repeats an update (told to or not) must not apply it twice.
    const { collection, sent } = await memory.run(
      input.collection_id,
      update,
      send,
      mayHaveApplied,
    );
    return {
      request,
      response: collection,
      ...(sent ? {} : { alreadyApplied: true as const }),
      ...skipped,
    };
  },
  toModelOutput: formatCollection,
});
