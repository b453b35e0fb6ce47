import type { Clause, Collection, CollectionUpdate, NewClause } from '../../schemas/index.js';
import type { CatalogStore } from '../../store/catalog-store.js';
import { type CatalogToolContext, defineCatalogTool } from '../definition.js';
import { mayHaveApplied } from '../error-text.js';
import {
  type UpdateCollectionInput,
  UpdateCollectionInputSchema,
} from '../input/update-collection.js';
import { countOf } from '../plural.js';
import type { CatalogToolResult } from '../result.js';
import { SELECTOR_KEYS, withoutKnownClauses } from './known-clauses.js';
import { UpdateMemory } from './update-memory.js';
import { normalizeUpdate } from './update-normal-form.js';

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
 * One memory of sent updates per store: tools given the same store (or built on clients
 * that share one) share it, across every instance that uses that store.
 */
const memories = new WeakMap<CatalogStore, UpdateMemory>();
/** The store the tool's context gives, else its client's. */
function storeOf({ store, client }: CatalogToolContext): CatalogStore {
  return store ?? client.store;
}

function memoryOf(store: CatalogStore): UpdateMemory {
  let memory = memories.get(store);
  if (!memory) {
    memory = new UpdateMemory(store);
    memories.set(store, memory);
  }
  return memory;
}

/**
 * Only the fields the model gave go on the wire (an absent field leaves the collection as
 * is), in the update's normal form: what is sent is exactly what the memory fingerprints, so
 * a repeat spelled differently (`[]` for "none", ids twice or in another order) is the same
 * update.
 */
function buildUpdate(input: UpdateCollectionInput): CollectionUpdate {
  const update: CollectionUpdate = {};
  if (input.name !== null) update.name = input.name;
  if (input.description !== null) update.description = input.description;
  if (input.add_clauses !== null) update.add_clauses = input.add_clauses;
  if (input.replace_clauses !== null) update.replace_clauses = input.replace_clauses;
  if (input.remove_clause_ids !== null) update.remove_clause_ids = input.remove_clause_ids;
  return normalizeUpdate(update);
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
  async execute(input, context) {
    const { client, signal } = context;
    const memory = memoryOf(storeOf(context));
    // Only what this client's service and key learnt: another tenant or service sharing the
    // store must never answer (or refuse) this call.
    const scope = await client.storeScope();
    // Clauses the collection already has are not added again (a model that adds the same
    // products twice would otherwise create duplicates), judged only from a recent answer
    // and never while an update of it is unanswered: the worst a missed match costs is a
    // duplicate clause, while a wrong one drops what the shopper asked for.
    const known = await memory.lastKnownState(input.collection_id, { scope, signal });
    const { update, alreadySelected } = withoutKnownClauses(known, buildUpdate(input));
    const skipped = alreadySelected.length === 0 ? {} : { alreadySelected };
    const request = { collectionId: input.collection_id, update };
    if (known !== undefined && Object.keys(update).length === 0) {
      return { request, response: known, ...skipped };
    }
    // Within the time the memory gives it (the client's limit, less any time the store took).
    const send = (timeoutMs: number) =>
      client.collections.update(input.collection_id, update, {
        timeoutMs,
        ...(signal ? { signal } : {}),
      });
    // A model that repeats an update (told to or not) must not apply it twice. An identical
    // call elsewhere waits for this one as long as it may take, then counts it as unknown:
    // refusing is safe even if it succeeds later.
    const { collection, sent } = await memory.run(
      input.collection_id,
      update,
      send,
      mayHaveApplied,
      { signal, timeoutMs: client.toJSON().timeoutMs, scope },
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
