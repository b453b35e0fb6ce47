import type { RunningEmulator } from '@catalogkit/emulator';
import type { CatalogService } from '../service/catalog-service.js';
import { type CollectionsSnapshot, snapshotCollections } from '../service/collections.js';
import { throwIfAny } from './error.js';

/** The route name of a collection update in the emulator's stats. */
export const UPDATE_ROUTE = 'PATCH /v1/collections/:collection_id';

function emulatorOf(target: CatalogService | RunningEmulator): RunningEmulator {
  return 'emulator' in target ? target.emulator : target;
}

/** Clauses held more times than before (and more than once): changes applied twice. */
export function changeAppliedTwiceProblems(
  target: CatalogService | RunningEmulator,
  before?: CollectionsSnapshot,
): string[] {
  const start = before ?? ('collectionsAtStart' in target ? target.collectionsAtStart : new Map());
  const now = snapshotCollections(emulatorOf(target).state.collections);
  const problems: string[] = [];
  for (const [collectionId, counts] of now) {
    for (const [selection, count] of counts) {
      const earlier = start.get(collectionId)?.get(selection) ?? 0;
      if (count > Math.max(1, earlier)) {
        problems.push(
          `collection ${collectionId} holds the clause "${selection}" ${count} times (${earlier} before): a change was applied ${count - earlier} times`,
        );
      }
    }
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
}

/** Updates that reached the service beyond those the shopper approved. */
export function unapprovedChangeProblems(
  target: CatalogService | RunningEmulator,
  approvals: readonly ApprovalRecord[],
): string[] {
  const sent = emulatorOf(target).stats.count(UPDATE_ROUTE);
  const approved = approvals.filter((approval) => approval.approved).length;
  if (sent <= approved) return [];
  return [
    `update_collection reached the service ${sent} time${sent === 1 ? '' : 's'} but the shopper approved ${approved}: a change ran without approval (build the tools with approval on and ask approve before a change runs)`,
  ];
}

/**
 * Throws when collection updates reached the service more often than the shopper approved
 * one (each approval allows one request).
 */
export function assertChangesApproved(
  target: CatalogService | RunningEmulator,
  approvals: readonly ApprovalRecord[],
): void {
  throwIfAny('assertChangesApproved', unapprovedChangeProblems(target, approvals));
}
