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
  maxEntries: number;
  ttlMs: number;
}

/**
 * 100 updates, for 10 minutes: long enough for a model that retries within a turn or the
 * next one, short enough that a shopper who checked the collection can ask again.
 */
export const DEFAULT_UPDATE_MEMORY: UpdateMemoryLimits = { maxEntries: 100, ttlMs: 10 * 60_000 };

/** A value with object keys sorted and string lists sorted (id lists are sets). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    return items.every((item) => typeof item === 'string') ? [...items].sort() : items;
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
  readonly #limits: UpdateMemoryLimits;
  readonly #now: () => number;

  constructor(limits: UpdateMemoryLimits = DEFAULT_UPDATE_MEMORY, now: () => number = Date.now) {
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
    if (known?.state === 'applied') return { collection: known.collection, sent: false };
    const sending = send();
    this.#inFlight.set(key, sending);
    try {
      const collection = await sending;
      this.#forgetApplied(collectionId);
      this.#remember(key, { state: 'applied', collection, collectionId, at: this.#now() });
      return { collection, sent: true };
    } catch (error) {
      if (isOutcomeUnknown(error)) {
        this.#remember(key, { state: 'unknown', error, collectionId, at: this.#now() });
      }
      throw error;
    } finally {
      this.#inFlight.delete(key);
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
    // A Map iterates in insertion order, so the first key is the oldest.
    while (this.#known.size > this.#limits.maxEntries) {
      const oldest = this.#known.keys().next().value;
      if (oldest === undefined) break;
      this.#known.delete(oldest);
    }
  }
}
