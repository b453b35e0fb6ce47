import { monotonicMs } from '../../async.js';
import { CatalogError } from '../../errors/catalog-error.js';
import type { Collection, CollectionUpdate } from '../../schemas/index.js';

/**
 * A repeat of a collection update whose earlier call may have been applied (it timed out,
 * lost its connection after sending, got a 5xx or a truncated answer). It was not sent
 * again, since it could apply twice; `cause` is the earlier call's error.
 */
export class RepeatedUpdateError extends CatalogError {
  static override readonly kind: string = 'RepeatedUpdateError';
  override readonly outcomeUnknown = true;
  /** The collection the update was for. */
  readonly collectionId: string;

  constructor(collectionId: string, cause: unknown) {
    super(
      'repeated_update',
      `An identical update of collection ${collectionId} was already sent and its outcome is unknown; it was not sent again`,
      { cause },
    );
    this.collectionId = collectionId;
  }
}

/** What is known of an update sent before. */
type Known = { collectionId: string; at: number } & (
  | { state: 'unknown'; error: unknown }
  | { state: 'applied'; collection: Collection }
);

/** How many updates are remembered, and for how long (ms). */
export interface UpdateMemoryLimits {
  /** Updates that succeeded (and, without `maxUnknownEntries`, those of unknown outcome). */
  maxEntries: number;
  /**
   * Updates whose outcome is unknown, kept apart so a flood of other updates does not evict
   * the guard against applying one twice. Default: `maxEntries`.
   */
  maxUnknownEntries?: number;
  ttlMs: number;
}

/**
 * How long an answer may be used to leave out clauses the collection already selects, or to
 * answer a repeat of the update from memory (ms): another writer (the shopper's browser, a
 * second host) may change the collection at any time, and no client cache can see it, so
 * only a very recent answer is trusted for that.
 */
export const KNOWN_STATE_MAX_AGE_MS = 60_000;

/**
 * 100 successes and 1,000 unknown outcomes, for 10 minutes (a success answers a repeat only
 * for its first minute, {@link KNOWN_STATE_MAX_AGE_MS}): long enough for a model that
 * retries within a turn or the next one, short enough that a shopper who checked the
 * collection can ask again.
 */
export const DEFAULT_UPDATE_MEMORY: UpdateMemoryLimits = {
  maxEntries: 100,
  maxUnknownEntries: 1_000,
  ttlMs: 10 * 60_000,
};

/**
 * A value with object keys sorted, string lists as sets (sorted, duplicates dropped: they
 * are ids) and lists of objects as multisets (sorted by their canonical text: the order of
 * clauses to add or replace does not change what the update does; a clause twice adds two).
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    if (items.every((item) => typeof item === 'string')) return [...new Set(items)].sort();
    return items
      .map((item) => ({ item, text: JSON.stringify(item) }))
      .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      .map(({ item }) => item);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The memory key of an update: the collection and the canonical body. */
export function updateKey(collectionId: string, update: CollectionUpdate): string {
  return JSON.stringify([collectionId, canonical(update)]);
}

/** Whether `answer` shows an older state than `held`: both dated, `answer` strictly earlier. */
function isOlder(answer: Collection, held: Collection): boolean {
  const answerAt = Date.parse(answer.updated_at ?? '');
  const heldAt = Date.parse(held.updated_at ?? '');
  return Number.isFinite(answerAt) && Number.isFinite(heldAt) && answerAt < heldAt;
}

/** The outcome of {@link UpdateMemory.run}: the collection, and whether it was sent now. */
export interface RememberedUpdate {
  collection: Collection;
  /** False when this repeated an update that had just succeeded: the earlier answer is reused. */
  sent: boolean;
}

/**
 * What one tool set (or client) knows of the collection updates it sent, so a model that
 * repeats one does not apply it twice: an identical update whose outcome is unknown is not
 * sent again (a {@link RepeatedUpdateError}), and one that just succeeded is answered from
 * memory. Bounded in size and time, oldest first.
 */
export class UpdateMemory {
  readonly #known = new Map<string, Known>();
  readonly #inFlight = new Map<string, Promise<unknown>>();
  /** Updates sent and not yet answered, per collection: its state is unknown meanwhile. */
  readonly #sending = new Map<string, number>();
  /** The last answer per collection, oldest first: what the collection held after it. */
  readonly #states = new Map<string, { collection: Collection; at: number }>();
  readonly #limits: UpdateMemoryLimits;
  readonly #now: () => number;

  /**
   * `now`: the clock entries age on, monotonic by default so a wall clock stepped forward
   * does not forget an update of unknown outcome early (nor one stepped back keep it forever).
   */
  constructor(limits: UpdateMemoryLimits = DEFAULT_UPDATE_MEMORY, now: () => number = monotonicMs) {
    this.#limits = limits;
    this.#now = now;
  }

  /**
   * Sends the update with `send` unless memory says it must not be: identical calls made at
   * the same time wait for the first, then follow what it learnt.
   */
  async run(
    collectionId: string,
    update: CollectionUpdate,
    send: () => Promise<Collection>,
    isOutcomeUnknown: (error: unknown) => boolean,
  ): Promise<RememberedUpdate> {
    const key = updateKey(collectionId, update);
    // No await between this check and registering the send below, so a concurrent
    // identical call always sees one or the other.
    for (let pending = this.#inFlight.get(key); pending; pending = this.#inFlight.get(key)) {
      await pending.catch(() => undefined);
    }
    const known = this.#recall(key);
    if (known?.state === 'unknown') throw new RepeatedUpdateError(collectionId, known.error);
    // A success is answered from memory only while recent: later, another writer may have
    // undone it, and the shopper asking again means it is to be sent.
    if (known?.state === 'applied' && this.#now() - known.at <= KNOWN_STATE_MAX_AGE_MS) {
      return { collection: known.collection, sent: false };
    }
    // Any other update of the collection, once sent, makes an earlier success no longer the
    // latest change (a repeat of that add after a removal must be sent, answered or not).
    this.#forgetApplied(collectionId);
    const sending = send();
    this.#inFlight.set(key, sending);
    this.#sending.set(collectionId, (this.#sending.get(collectionId) ?? 0) + 1);
    try {
      const collection = await sending;
      this.#remember(key, { state: 'applied', collection, collectionId, at: this.#now() });
      this.#rememberState(collectionId, collection);
      return { collection, sent: true };
    } catch (error) {
      if (isOutcomeUnknown(error)) {
        this.#remember(key, { state: 'unknown', error, collectionId, at: this.#now() });
        // It may have changed the collection: the last answer no longer says what it holds.
        this.#states.delete(collectionId);
      }
      throw error;
    } finally {
      this.#inFlight.delete(key);
      const left = (this.#sending.get(collectionId) ?? 1) - 1;
      if (left > 0) this.#sending.set(collectionId, left);
      else this.#sending.delete(collectionId);
    }
  }

  /**
   * The collection as the newest successful answer for it showed it, received at most
   * `maxAgeMs` ago (and within the memory's time limit); undefined when none is known or
   * while an update of it sent from here is unanswered (it may have changed it). Another
   * writer may have changed it since: callers must not treat it as certain.
   */
  lastKnownState(collectionId: string, maxAgeMs = this.#limits.ttlMs): Collection | undefined {
    if (this.#sending.has(collectionId)) return undefined;
    const known = this.#states.get(collectionId);
    if (known === undefined) return undefined;
    const age = this.#now() - known.at;
    if (age > this.#limits.ttlMs) this.#states.delete(collectionId);
    return age <= Math.min(maxAgeMs, this.#limits.ttlMs) ? known.collection : undefined;
  }

  #rememberState(collectionId: string, collection: Collection): void {
    const held = this.#states.get(collectionId)?.collection;
    // Answers to updates sent at the same time may arrive in any order: one older than the
    // state held (by the service's updated_at) would bring back what a later update changed.
    if (held !== undefined && isOlder(collection, held)) return;
    this.#states.delete(collectionId);
    this.#states.set(collectionId, { collection, at: this.#now() });
    for (const oldest of this.#states.keys()) {
      if (this.#states.size <= this.#limits.maxEntries) break;
      this.#states.delete(oldest);
    }
  }

  #recall(key: string): Known | undefined {
    const known = this.#known.get(key);
    if (known && this.#now() - known.at > this.#limits.ttlMs) {
      this.#known.delete(key);
      return undefined;
    }
    return known;
  }

  /** Only the latest success per collection counts as "just succeeded". */
  #forgetApplied(collectionId: string): void {
    for (const [key, known] of this.#known) {
      if (known.state === 'applied' && known.collectionId === collectionId) this.#known.delete(key);
    }
  }

  #remember(key: string, known: Known): void {
    this.#known.delete(key);
    this.#known.set(key, known);
    const { maxEntries, maxUnknownEntries = maxEntries } = this.#limits;
    const cap = known.state === 'unknown' ? maxUnknownEntries : maxEntries;
    let count = 0;
    for (const entry of this.#known.values()) if (entry.state === known.state) count++;
    // A Map iterates in insertion order, so the oldest of the same state go first.
    for (const [oldKey, entry] of this.#known) {
      if (count <= cap) break;
      if (entry.state !== known.state) continue;
      this.#known.delete(oldKey);
      count--;
    }
  }
}
