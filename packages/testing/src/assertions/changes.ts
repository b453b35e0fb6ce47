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

/** An update that reached the service: the collection it changes, and when it arrived. */
interface UpdateSent {
  collectionId: string | undefined;
  at: number | undefined;
}

const UPDATE_PATH = /\/collections\/([^/?#]+)/;

function updatesSent(target: CatalogService | RunningEmulator): UpdateSent[] {
  if (!('exchanges' in target)) {
    const count = target.stats.count(UPDATE_ROUTE);
    return Array.from({ length: count }, () => ({ collectionId: undefined, at: undefined }));
  }
  return target.exchanges
    .filter((exchange) => exchange.method === 'PATCH' && UPDATE_PATH.test(exchange.path))
    .map((exchange) => ({
      collectionId: decodeURIComponent(UPDATE_PATH.exec(exchange.path)?.[1] ?? ''),
      at: exchange.at,
    }));
}

/** The collection an approval names (its input as an object, or as JSON text). */
function approvedCollection(input: unknown): string | undefined {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const id = (value as { collection_id?: unknown }).collection_id;
  return typeof id === 'string' ? id : undefined;
}

function matches(approval: ApprovalRecord, update: UpdateSent): boolean {
  if (!approval.approved || approval.toolName !== 'update_collection') return false;
  if (approval.at !== undefined && update.at !== undefined && approval.at > update.at) return false;
  const named = approvedCollection(approval.input);
  // Read from the service, an update names its collection: the approval must name the same.
  return update.collectionId === undefined || named === update.collectionId;
}

/**
 * Updates that reached the service with no approval of their own: each needs a distinct
 * approval of `update_collection`, given before it arrived, naming the same collection.
 */
export function unapprovedChangeProblems(
  target: CatalogService | RunningEmulator,
  approvals: readonly ApprovalRecord[],
): string[] {
  const unused = [...approvals];
  const sent = updatesSent(target);
  let unmatched = 0;
  for (const update of sent) {
    const index = unused.findIndex((approval) => matches(approval, update));
    if (index === -1) unmatched++;
    else unused.splice(index, 1);
  }
  if (unmatched === 0) return [];
  const approved = sent.length - unmatched;
  return [
    `update_collection reached the service ${sent.length} time${sent.length === 1 ? '' : 's'} but the shopper approved ${approved}: a change ran without approval (build the tools with approval on and ask approve before a change runs, with the tool name and input of that change; a denied change must not run)`,
  ];
}

/**
 * Throws when a collection update reached the service without an approval of its own: each
 * update needs a distinct approval (`approved: true`) of `update_collection` naming the same
 * collection and, when the approval records `at`, given before the update arrived.
 */
export function assertChangesApproved(
  target: CatalogService | RunningEmulator,
  approvals: readonly ApprovalRecord[],
): void {
  throwIfAny('assertChangesApproved', unapprovedChangeProblems(target, approvals));
}
