import type { CollectionUpdate } from '@catalogkit/core';
import { updateCollectionRequest } from '@catalogkit/core/tools';
import type { RunningEmulator } from '@catalogkit/emulator';
import type { CatalogService } from '../service/catalog-service.js';
import {
  type CollectionsSnapshot,
  selectedItems,
  snapshotCollections,
} from '../service/collections.js';
import { throwIfAny } from './error.js';

/** The route name of a collection update in the emulator's stats. */
export const UPDATE_ROUTE = 'PATCH /v1/collections/:collection_id';

function emulatorOf(target: CatalogService | RunningEmulator): RunningEmulator {
  return 'emulator' in target ? target.emulator : target;
}

/** Entries counted more times than before (and more than once), per collection. */
function grown(
  now: CollectionsSnapshot,
  start: CollectionsSnapshot,
): { collectionId: string; name: string; count: number; earlier: number }[] {
  const found: { collectionId: string; name: string; count: number; earlier: number }[] = [];
  for (const [collectionId, counts] of now) {
    for (const [name, count] of counts) {
      const earlier = start.get(collectionId)?.get(name) ?? 0;
      if (count > Math.max(1, earlier)) found.push({ collectionId, name, count, earlier });
    }
  }
  return found;
}

/**
 * Clauses held more times than before (and more than once), and, in collections with no such
 * clause, ids selected by more clauses than before (`[A]` then `[A, B]`): changes applied twice.
 */
export function changeAppliedTwiceProblems(
  target: CatalogService | RunningEmulator,
  before?: CollectionsSnapshot,
): string[] {
  const start = before ?? ('collectionsAtStart' in target ? target.collectionsAtStart : new Map());
  const now = snapshotCollections(emulatorOf(target).state.collections);
  const clauses = grown(now, start);
  const problems = clauses.map(
    ({ collectionId, name, count, earlier }) =>
      `collection ${collectionId} holds the clause "${name}" ${count} times (${earlier} before): a change was applied ${count - earlier} times`,
  );
  const reported = new Set(clauses.map((clause) => clause.collectionId));
  for (const { collectionId, name, count, earlier } of grown(
    selectedItems(now),
    selectedItems(start),
  )) {
    if (reported.has(collectionId)) continue;
    problems.push(
      `collection ${collectionId} selects ${name} in ${count} clauses (${earlier} before): a change was applied ${count - earlier} times`,
    );
  }
  return problems;
}

/**
 * Throws when a collection change was applied more than once: read back from what the
 * emulator holds, a clause (by what it selects) held more times than when the service
 * started (and more than once). Given a bare emulator, pass `before` (a snapshot taken with
 * `snapshotCollections(emulator.state.collections)` before the run), else every duplicate
 * counts.
 *
 * @example
 * assertNoChangeAppliedTwice(service);
 */
export function assertNoChangeAppliedTwice(
  target: CatalogService | RunningEmulator,
  before?: CollectionsSnapshot,
): void {
  throwIfAny('assertNoChangeAppliedTwice', changeAppliedTwiceProblems(target, before));
}

/** A decision the shopper made on a change, as the kit's `approve` records it. */
export interface ApprovalRecord {
  toolName: string;
  input: unknown;
  approved: boolean;
  /**
   * When it was given (`performance.now()`), as the kit's shopper records it: then only
   * updates that reached the service after it can use it.
   */
  at?: number;
}

/** An update that reached the service: its collection, its update in normal form, when it arrived. */
interface UpdateSent {
  collectionId: string | undefined;
  /** The update as `update_collection` would send it; `undefined` when not read (bare emulator). */
  update: CollectionUpdate | undefined;
  at: number | undefined;
}

const UPDATE_PATH = /\/collections\/([^/?#]+)/;

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body sent, put in `update_collection`'s normal form by core's own request builder. */
function sentUpdate(collectionId: string, body: string): CollectionUpdate | undefined {
  const fields = parseJson(body);
  if (typeof fields !== 'object' || fields === null) return undefined;
  return updateCollectionRequest({ ...fields, collection_id: collectionId })?.update;
}

function updatesSent(target: CatalogService | RunningEmulator): UpdateSent[] {
  if (!('exchanges' in target)) {
    const count = target.stats.count(UPDATE_ROUTE);
    return Array.from({ length: count }, () => ({
      collectionId: undefined,
      update: undefined,
      at: undefined,
    }));
  }
  return target.exchanges
    .filter((exchange) => exchange.method === 'PATCH' && UPDATE_PATH.test(exchange.path))
    .map((exchange) => {
      const collectionId = decodeURIComponent(UPDATE_PATH.exec(exchange.path)?.[1] ?? '');
      return {
        collectionId,
        update: sentUpdate(collectionId, exchange.requestBody),
        at: exchange.at,
      };
    });
}

const UPDATE_FIELDS = [
  'name',
  'description',
  'add_clauses',
  'replace_clauses',
  'remove_clause_ids',
] as const;

/**
 * Fields of the sent update that differ from the approved one. Only `add_clauses` may send
 * less than approved: core leaves out clauses the collection already holds.
 */
function differences(sent: CollectionUpdate, approved: CollectionUpdate): string[] {
  const found: string[] = [];
  for (const field of UPDATE_FIELDS) {
    const was = JSON.stringify(approved[field]);
    const is = JSON.stringify(sent[field]);
    if (was === is) continue;
    if (field === 'add_clauses' && sent.add_clauses !== undefined) {
      const allowed = new Set((approved.add_clauses ?? []).map((c) => JSON.stringify(c)));
      if (sent.add_clauses.every((c) => allowed.has(JSON.stringify(c)))) continue;
    }
    if (field === 'add_clauses' && sent.add_clauses === undefined) continue;
    found.push(`${field} sent ${is ?? '(absent)'} but approved ${was ?? '(absent)'}`);
  }
  return found;
}

/** Why an approval does not cover an update (empty when it does). */
function mismatch(approval: ApprovalRecord, update: UpdateSent): string[] | undefined {
  if (!approval.approved || approval.toolName !== 'update_collection') return undefined;
  if (approval.at !== undefined && update.at !== undefined && approval.at > update.at) {
    return undefined;
  }
  const approved = updateCollectionRequest(parseJson(approval.input));
  if (update.collectionId === undefined) return [];
  // Read from the service, an update names its collection: the approval must name the same.
  if (approved === undefined || approved.collectionId !== update.collectionId) return undefined;
  if (update.update === undefined) return ['the update sent is not a valid update_collection body'];
  return differences(update.update, approved.update);
}

/**
 * Updates that reached the service with no approval of their own: each needs a distinct
 * approval of `update_collection`, given before it arrived, whose input, put in the form
 * `update_collection` sends (core's own request builder), equals what was sent.
 */
export function unapprovedChangeProblems(
  target: CatalogService | RunningEmulator,
  approvals: readonly ApprovalRecord[],
): string[] {
  const unused = [...approvals];
  const sent = updatesSent(target);
  const problems: string[] = [];
  let unmatched = 0;
  for (const update of sent) {
    const index = unused.findIndex((approval) => mismatch(approval, update)?.length === 0);
    if (index !== -1) {
      unused.splice(index, 1);
      continue;
    }
    unmatched++;
    const near = unused.map((approval) => mismatch(approval, update)).find((d) => d?.length);
    if (near) {
      problems.push(
        `collection ${update.collectionId} was changed beyond what the shopper approved: ${near.join('; ')} (send exactly the change the shopper approved)`,
      );
    }
  }
  if (unmatched === 0) return [];
  const approved = sent.length - unmatched;
  return [
    `update_collection reached the service ${sent.length} time${sent.length === 1 ? '' : 's'} but the shopper approved ${approved}: a change ran without approval (build the tools with approval on and ask approve before a change runs, with the tool name and input of that change; a denied change must not run)`,
    ...problems,
  ];
}

/**
 * Throws when a collection update reached the service without an approval of its own: each
 * update needs a distinct approval (`approved: true`) of `update_collection` whose input, in
 * the form `update_collection` sends, equals the update sent and, when the approval records `at`, given before the update arrived.
 */
export function assertChangesApproved(
  target: CatalogService | RunningEmulator,
  approvals: readonly ApprovalRecord[],
): void {
  throwIfAny('assertChangesApproved', unapprovedChangeProblems(target, approvals));
}
