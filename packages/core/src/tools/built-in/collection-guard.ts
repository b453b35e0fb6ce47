import { CatalogError } from '../../errors/catalog-error.js';
import { RepeatedUpdateError } from '../../errors/update-errors.js';
import { type CollectionUpdate, SELECTOR_KEYS } from '../../schemas/collections.js';
import type { CatalogStore } from '../../store/catalog-store.js';
import { randomStamp } from '../../store/scope.js';
import { callStore } from '../../store/store-call.js';

/**
 * Life of a write-ahead record left behind by an unknown outcome or a process that died
 * mid-send: after it, the collection accepts the same adds again (the model is told so).
 */
const GUARD_RECORD_TTL_MS = 600_000; // 10 minutes

/** Longest a write after sending may delay the answer: a hung store costs at most this. */
const SETTLE_TIMEOUT_MS = 1_000;
/** When a record whose write was reported failed (it may land late) is looked for, to clear. */
const ORPHAN_CHECKS_MS = [100, 1_000, 10_000];

/** Each selector the update adds or writes by replacement, as `kind:id` (`product_ids:p1`). */
function addedSelectors({ add_clauses = [], replace_clauses = [] }: CollectionUpdate): string[] {
  const added = new Set<string>();
  for (const clause of [...add_clauses, ...replace_clauses]) {
    for (const key of SELECTOR_KEYS) for (const id of clause[key]) added.add(`${key}:${id}`);
  }
  return [...added].sort();
}

/** The selectors `a` a record adds (a record is `{ o: stamp of its send, a: selectors }`). */
function pendingAdds(raw: string | undefined): string[] {
  try {
    const { a } = JSON.parse(raw ?? '') as { a?: unknown };
    return Array.isArray(a) ? a.filter((add): add is string => typeof add === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Sends `update` with `send` under the write-ahead guard of its collection (ARCHITECTURE.md,
 * "Changes guarded per collection"). Throws a RepeatedUpdateError (nothing sent) while another
 * guarded change is out or of unknown outcome, a StoreUnavailableError when the store fails.
 */
export async function sendGuarded<T>(
  { store, scope, collectionId }: { store: CatalogStore; scope: string; collectionId: string },
  update: CollectionUpdate,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
): Promise<T> {
  if (update.add_clauses === undefined && update.replace_clauses === undefined) return send();
  const key = `catalogkit:guard:${scope}:${collectionId}`;
  const adds = addedSelectors(update);
  const value = JSON.stringify({ o: randomStamp(), a: adds });
  const record = () => store.setIfAbsent(key, value, GUARD_RECORD_TTL_MS);
  const what = 'recording a collection change before sending it';
  const written = await callStore(store, what, record, { signal }).catch((error: unknown) => {
    // The write may still land (a timed-out command can run later): clear it if it does.
    clearOrphan(store, key, value);
    throw error;
  });
  if (!written) {
    const held = await callStore(store, 'reading a collection change', () => store.get(key), {
      signal,
    });
    const pending = pendingAdds(held?.value);
    const mine = new Set(adds);
    throw new RepeatedUpdateError(
      collectionId,
      pending,
      pending.filter((add) => mine.has(add)),
    );
  }
  try {
    const result = await send();
    await clear(store, key, value);
    return result;
  } catch (error) {
    if (CatalogError.is(error) && !error.outcomeUnknown) await clear(store, key, value);
    throw error;
  }
}

/**
 * Removes the record if it is still `value` (this writer's), within a short time: a late
 * clear never removes another writer's record. A failure leaves it to expire (refusing).
 */
async function clear(store: CatalogStore, key: string, value: string): Promise<void> {
  const remove = () => store.deleteIfEquals(key, value);
  await callStore(store, 'clearing a collection change', remove, {
    timeoutMs: SETTLE_TIMEOUT_MS,
  }).catch(() => undefined);
}

/** Deletes a record written by a send that never happened, if it is still that one. */
function clearOrphan(store: CatalogStore, key: string, value: string, attempt = 0): void {
  const delayMs = ORPHAN_CHECKS_MS[attempt];
  if (delayMs === undefined) return;
  const timer = setTimeout(async () => {
    const held = await store.get(key).catch(() => undefined);
    if (held?.value === value) await clear(store, key, value);
    // Not there yet (or unreadable): look once more later; another writer's: leave it.
    else if (held === undefined) clearOrphan(store, key, value, attempt + 1);
  }, delayMs);
  (timer as { unref?: () => void }).unref?.(); // a check must not keep a Node process alive
}
