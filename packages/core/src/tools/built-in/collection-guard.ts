import { unrefTimeout } from '../../async.js';
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
export const GUARD_RECORD_TTL_MS = 600_000; // 10 minutes

/** Longest a write after sending may delay the answer: a hung store costs at most this. */
const SETTLE_TIMEOUT_MS = 1_000;
/** When a record whose write was reported failed (it may land late) is looked for, to clear. */
const ORPHAN_CHECKS_MS = [100, 1_000, 10_000];

/** Each selector the update adds or writes by replacement, as `kind:id` (`product_ids:p1`). */
function addedSelectors(
  update: Pick<CollectionUpdate, 'add_clauses' | 'replace_clauses'>,
): string[] {
  const added = new Set<string>();
  for (const clause of [...(update.add_clauses ?? []), ...(update.replace_clauses ?? [])]) {
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

/** Clears the record once the outcome is known: true when an answer was read or nothing left. */
type SettleGuard = (outcomeKnown: boolean) => Promise<void>;

/**
 * The write-ahead guard of one collection (ARCHITECTURE.md, "Changes guarded per
 * collection"): none -> sending (record written by one atomic set-if-absent, then the PATCH)
 * -> none (the writer read an answer, or its failure is proven before sending; cleared by
 * compare-and-delete on the writer's stamp) | unknown (record kept until it expires).
 * Store cost per update: at most 2 operations.
 */
export class CollectionGuard {
  readonly #store: CatalogStore;
  readonly #key: string;

  constructor(
    store: CatalogStore,
    scope: string,
    readonly collectionId: string,
  ) {
    this.#store = store;
    this.#key = `catalogkit:guard:${scope}:${collectionId}`;
  }

  /**
   * Sends `update` with `send` under the guard: an update that adds or replaces clauses (any
   * `add_clauses`, even `[]`, or `replace_clauses`) is recorded before it is sent, so this
   * instance is the collection's one writer, and the record is cleared only once the outcome
   * is known (an answer was read, or the failure is proven to have come before sending).
   * Throws a RepeatedUpdateError (nothing sent) while another guarded change to the
   * collection is out or of unknown outcome, and a StoreUnavailableError when the store
   * fails. Renames, descriptions and removals are safe to repeat and take no record.
   */
  async send<T>(update: CollectionUpdate, signal: AbortSignal | undefined, send: () => Promise<T>) {
    const guarded = update.add_clauses !== undefined || update.replace_clauses !== undefined;
    const settle: SettleGuard = guarded ? await this.#begin(update, signal) : async () => {};
    let result: T;
    try {
      result = await send();
    } catch (error) {
      await settle(CatalogError.is(error) && !error.outcomeUnknown);
      throw error;
    }
    await settle(true);
    return result;
  }

  async #begin(update: CollectionUpdate, signal?: AbortSignal): Promise<SettleGuard> {
    const adds = addedSelectors(update);
    const value = JSON.stringify({ o: randomStamp(), a: adds });
    const written = await this.#call(
      'recording a collection change before sending it',
      (s) => s.setIfAbsent(this.#key, value, GUARD_RECORD_TTL_MS),
      signal,
    ).catch((error: unknown) => {
      // The write may still land (a timed-out command can run later): clear it if it does.
      this.#clearOrphan(value, 0);
      throw error;
    });
    if (written) return (known) => (known ? this.#delete(value) : Promise.resolve());
    const held = await this.#call('reading a collection change', (s) => s.get(this.#key), signal);
    const pending = pendingAdds(held?.value);
    const mine = new Set(adds);
    throw new RepeatedUpdateError(
      this.collectionId,
      pending,
      pending.filter((add) => mine.has(add)),
    );
  }

  /**
   * Removes the record if it is still `value` (this writer's), within a short time: a late
   * clear never removes another writer's record. A failure leaves it to expire (refusing).
   */
  async #delete(value: string): Promise<void> {
    await this.#call(
      'clearing a collection change',
      (s) => s.deleteIfEquals(this.#key, value),
      undefined,
      SETTLE_TIMEOUT_MS,
    ).catch(() => undefined);
  }

  /** Deletes a record written by a send that never happened, if it is still that one. */
  #clearOrphan(value: string, attempt: number): void {
    const delayMs = ORPHAN_CHECKS_MS[attempt];
    if (delayMs === undefined) return;
    unrefTimeout(async () => {
      const held = await this.#store.get(this.#key).catch(() => undefined);
      if (held?.value === value) await this.#delete(value);
      // Not there yet (or unreadable): look once more later; another writer's: leave it.
      else if (held === undefined) this.#clearOrphan(value, attempt + 1);
    }, delayMs);
  }

  #call<T>(
    what: string,
    operation: (store: CatalogStore) => Promise<T>,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<T> {
    return callStore(this.#store, what, () => operation(this.#store), { signal, timeoutMs });
  }
}
