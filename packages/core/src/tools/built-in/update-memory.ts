import { abortable, monotonicMs, sleep, unrefTimeout } from '../../async.js';
import { CatalogError } from '../../errors/catalog-error.js';
import { StoreUnavailableError } from '../../errors/conversation-errors.js';
import { RepeatedUpdateError } from '../../errors/update-errors.js';
import { isRecord } from '../../is-record.js';
import type { Collection, CollectionUpdate } from '../../schemas/index.js';
import type { CatalogStore, StoredValue } from '../../store/catalog-store.js';
import { MemoryCatalogStore } from '../../store/memory-store.js';
import { randomStamp, sha256Hex } from '../../store/scope.js';
import { callStore, STORE_TIMEOUT_MS, storeName } from '../../store/store-call.js';
import { normalizeUpdate } from './update-normal-form.js';

/**
 * How long an answer may be used to leave out clauses the collection already selects, or to
 * answer a repeat of the update from memory (ms): another writer (the shopper's browser, a
 * second host) may change the collection at any time, and no client cache can see it, so
 * only a very recent answer is trusted for that.
 */
export const KNOWN_STATE_MAX_AGE_MS = 60_000;

/**
 * How long an outcome is kept (ms): long enough for a model that retries within a turn or
 * the next one, short enough that a shopper who checked the collection can ask again. A
 * success answers a repeat only for its first minute ({@link KNOWN_STATE_MAX_AGE_MS}). A
 * claim lives at least this long, and longer when its holder may take longer.
 */
export const UPDATE_MEMORY_TTL_MS = 600_000; // 10 minutes (a literal: no module-level code)

/**
 * Shortest time given to the store writes after an update was sent when the call's own time
 * is already up: a hung store then delays the answer by this much, not by minutes.
 */
export const AFTER_SEND_MIN_MS = 1_000;

/**
 * The store keys of the update memory (each documented in the README's "Deploying" table).
 * `<scope>` is 32 hex digits of the SHA-256 of the client's REST base URL and API key, so
 * clients of other keys or services sharing the store never read these entries.
 * - `catalogkit:update:<scope>:<fingerprint>`: one update (SHA-256 of the collection id and
 *   the update's normal form): `pending` while it is sent, then `unknown` or `applied` (with
 *   the collection the answer showed); each with the stamp `o` of the claim that wrote it.
 * - `…:<fingerprint>:abandoned:<o>`: claim `o` was never sent (its holder gave up before
 *   sending, or the service refused it): a repeat may take it over.
 * - `…:<fingerprint>:takeover:<o>`: the one instance taking over claim `o` (an abandoned
 *   claim, or a success too old to answer a repeat); short-lived.
 * - `catalogkit:collection-sending:<scope>:<collection_id>`: the stamp of the one update of
 *   the collection being sent (deleted when answered); `…-overlap:…` when another update of
 *   it was sent at the same time (left to expire). Either means its state is unknown.
 * - `catalogkit:collection-latest:<scope>:<collection_id>`: the latest update sent.
 * - `catalogkit:collection-state:<scope>:<collection_id>`: the newest answer; 60 s.
 */
const UPDATE_KEY = 'catalogkit:update:';
const SENDING_KEY = 'catalogkit:collection-sending:';
const OVERLAP_KEY = 'catalogkit:collection-overlap:';
const LATEST_KEY = 'catalogkit:collection-latest:';
const STATE_KEY = 'catalogkit:collection-state:';

/** The scope of a caller that gives none (direct use in one process). */
const UNSCOPED = 'unscoped';

/**
 * What is known of one update. `t` is the TTL it was written with (age = t − TTL left, both
 * measured by the store), `o` the stamp of the claim that wrote it.
 */
type Outcome =
  /** Claimed and being sent; `h`: how long its holder may take before it counts as unknown. */
  | { s: 'pending'; t: number; h: number; o: string }
  /** Sent, outcome unknown; `e`: the kind of error it failed with. */
  | { s: 'unknown'; t: number; e: string; o: string }
  /** Sent and answered. */
  | { s: 'applied'; t: number; c: Collection; o: string };

/** The text fingerprinted for an update: the collection and the update's normal form. */
function updateText(collectionId: string, update: CollectionUpdate): string {
  return JSON.stringify([collectionId, normalizeUpdate(update)]);
}

/**
 * The update's fingerprint in the store: the SHA-256 of {@link updateText} in hex, so keys
 * stay short whatever the update holds. Without Web Crypto (a page served over plain HTTP)
 * the text itself is used.
 */
async function updateFingerprint(collectionId: string, update: CollectionUpdate): Promise<string> {
  const text = updateText(collectionId, update);
  return (await sha256Hex(text)) ?? text;
}

/** Whether `answer` shows an older state than `held`: both dated, `answer` strictly earlier. */
function isOlder(answer: Collection, held: Collection): boolean {
  const answerAt = Date.parse(answer.updated_at ?? '');
  const heldAt = Date.parse(held.updated_at ?? '');
  return Number.isFinite(answerAt) && Number.isFinite(heldAt) && answerAt < heldAt;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isCollection(value: unknown): value is Collection {
  return isRecord(value) && typeof value.collection_id === 'string';
}

/** A stored outcome, or undefined when unreadable (treated as unknown: never sent again). */
function parseOutcome(text: string): Outcome | undefined {
  const value = parseJson(text);
  if (!isRecord(value) || typeof value.t !== 'number' || typeof value.o !== 'string') {
    return undefined;
  }
  if (value.s === 'pending' && typeof value.h === 'number') return value as Outcome;
  if (value.s === 'unknown' && typeof value.e === 'string') return value as Outcome;
  if (value.s === 'applied' && isCollection(value.c)) return value as Outcome;
  return undefined;
}

/** The error kind kept for an unknown outcome: a class name, never a message (no secrets). */
function errorKind(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}

/** Milliseconds between polls of an update another instance is sending: 25 ms up to 0.5 s. */
function pollDelayMs(round: number): number {
  return Math.min(500, 25 * 2 ** Math.min(round, 5));
}

const ignore = () => undefined;

/** Retries of an abandoned mark that could not be written: after 1 s, then doubling to 30 s. */
const ABANDON_RETRY_FIRST_MS = 1_000;
const ABANDON_RETRY_MAX_MS = 30_000;

/** The outcome of {@link UpdateMemory.run}: the collection, and whether it was sent now. */
export interface RememberedUpdate {
  collection: Collection;
  /** False when this repeated an update that had just succeeded: the earlier answer is reused. */
  sent: boolean;
}

/** Options of {@link UpdateMemory}. */
export interface UpdateMemoryOptions {
  /** Life of an outcome, and least life of a claim (default {@link UPDATE_MEMORY_TTL_MS}). */
  ttlMs?: number;
  /** Time limit of one store operation (default 5 s). */
  storeTimeoutMs?: number;
}

/** The client's default call time limit. */
const DEFAULT_TIMEOUT_MS = 60_000;

/** Options of one {@link UpdateMemory.run}. */
export interface RunOptions {
  /** Ends the waiting (not a send already under way). */
  signal?: AbortSignal | undefined;
  /**
   * The send's time limit (default 60 s, the client's default). The holder of a claim sends
   * within its time (this limit plus two store operations from the claim: see
   * {@link UpdateMemory}), and passes what is left of it to `send`.
   */
  timeoutMs?: number;
  /**
   * Whose memory this is: a digest of the service and API key (`CatalogClient`'s scope).
   * Updates of different scopes never answer or refuse each other.
   */
  scope?: string;
}

/** Sends the update within `timeoutMs` (the client's call with that time limit). */
export type SendUpdate = (timeoutMs: number) => Promise<Collection>;

type Claim =
  | { claimed: true; owner: string; claimedAt: number }
  | { claimed: false; collection: Collection };

/** The update being claimed, and its holder's time. */
interface Target {
  /** Its record's store key. */
  key: string;
  scope: string;
  collectionId: string;
  fingerprint: string;
  /** The send's time limit. */
  timeoutMs: number;
  /** Longest from the claim to the end of the send; see {@link UpdateMemory}. */
  holdMs: number;
}

/** How a sent update ended, for the writes after it. */
type SendResult =
  | { kind: 'applied'; collection: Collection }
  | { kind: 'unknown'; error: unknown }
  /** Refused by the service, so not applied: a repeat may send it. */
  | { kind: 'refused' };

/**
 * What the instances sharing a store know of the collection updates they sent, so a model
 * that repeats one does not apply it twice, in any instance.
 *
 * Every decision to send is an atomic `setIfAbsent`, so of any number of instances exactly
 * one sends: an update is claimed (its record key) before it is sent; an identical update
 * whose outcome is unknown is not sent again (a {@link RepeatedUpdateError}); one that just
 * succeeded is answered from memory; one being sent elsewhere is waited for. A success that
 * no longer answers a repeat (older than a minute, or another update of the collection was
 * sent since), or a claim whose holder never sent it, is taken over by the one instance that
 * wins the `setIfAbsent` of a ticket named after that claim's stamp: it deletes that record
 * (only if it still holds that claim, with time to spare), and the record is claimed afresh
 * with `setIfAbsent`. No lock or lease is relied on.
 *
 * Time: a holder sends within `timeoutMs` plus two store operations of its claim (its
 * `holdMs`), the send itself getting what is left; an identical call elsewhere waits that
 * long, then refuses (the outcome counts as unknown). A claim lives at least `holdMs` plus
 * four store operations, so it cannot expire while its holder may still send. The writes
 * after sending share one short budget (what is left of the call's time, at least
 * {@link AFTER_SEND_MIN_MS}, at most one store operation).
 *
 * When the store fails before sending, the call fails with a StoreUnavailableError and
 * nothing is sent; a claim that failed (it may still land: a timed-out write can run later)
 * is marked abandoned, so a repeat may take it over instead of refusing it. A write that
 * fails after sending leaves the claim `pending`, which later counts as unknown (never as
 * "not sent").
 */
export class UpdateMemory {
  readonly #store: CatalogStore;
  readonly #ttlMs: number;
  readonly #storeTimeoutMs: number;
  /** Claims held by this process: identical calls here wait for them instead of polling. */
  readonly #local = new Map<string, Promise<unknown>>();

  constructor(store: CatalogStore = new MemoryCatalogStore(), options: UpdateMemoryOptions = {}) {
    this.#store = store;
    this.#ttlMs = options.ttlMs ?? UPDATE_MEMORY_TTL_MS;
    this.#storeTimeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  }

  /** Four store operations: the slack kept around every time-based decision. */
  get #marginMs(): number {
    return 4 * this.#storeTimeoutMs;
  }

  /**
   * Sends the update with `send` unless memory says it must not be: identical calls made at
   * the same time (here or in another instance) wait for the first, then follow what it
   * learnt. The fingerprint is taken of the update's normal form (`normalizeUpdate`): pass
   * an update already in that form, so what is remembered is exactly what is sent.
   */
  async run(
    collectionId: string,
    update: CollectionUpdate,
    send: SendUpdate,
    isOutcomeUnknown: (error: unknown) => boolean,
    options: RunOptions = {},
  ): Promise<RememberedUpdate> {
    const { signal, timeoutMs = DEFAULT_TIMEOUT_MS, scope = UNSCOPED } = options;
    const fingerprint = await updateFingerprint(collectionId, update);
    const target: Target = {
      key: `${UPDATE_KEY}${scope}:${fingerprint}`,
      scope,
      collectionId,
      fingerprint,
      timeoutMs,
      holdMs: timeoutMs + 2 * this.#storeTimeoutMs,
    };
    const claim = await this.#claim(target, signal);
    if (!claim.claimed) return { collection: claim.collection, sent: false };
    const work = this.#sendClaimed(target, claim, send, isOutcomeUnknown, signal);
    this.#local.set(target.key, work);
    try {
      return await work;
    } finally {
      this.#local.delete(target.key);
    }
  }

  /**
   * The collection as the newest successful answer for it showed it, received at most
   * {@link KNOWN_STATE_MAX_AGE_MS} ago; undefined when none is known or while an update of it
   * sent by any instance sharing the store (in this scope) is unanswered (it may have changed
   * it). Another writer may have changed it since: callers must not treat it as certain.
   */
  async lastKnownState(
    collectionId: string,
    options: { scope?: string; signal?: AbortSignal | undefined } = {},
  ): Promise<Collection | undefined> {
    const { scope = UNSCOPED, signal } = options;
    const name = `${scope}:${collectionId}`;
    // The sender writes the answer, then clears its mark: read the marks first, so a cleared
    // mark means the answer is already there.
    const marks = await Promise.all(
      [SENDING_KEY, OVERLAP_KEY].map((prefix) =>
        this.#get(prefix + name, 'reading a collection', signal),
      ),
    );
    if (marks.some((mark) => mark !== undefined)) return undefined;
    const state = parseJson(await this.#get(STATE_KEY + name, 'reading a collection', signal));
    return isCollection(state) ? state : undefined;
  }

  /** Claims the update, or answers it from memory; throws when it must not be sent. */
  async #claim(target: Target, signal: AbortSignal | undefined): Promise<Claim> {
    const { key, collectionId } = target;
    // Every wait below is bounded by the holder's time or a ticket's life, measured by the
    // store; this bound only guards against a store whose TTLs do not run down.
    const deadline = monotonicMs() + target.holdMs + 2 * this.#marginMs;
    for (let round = 0; monotonicMs() < deadline; round++) {
      const local = this.#local.get(key);
      if (local !== undefined) {
        await abortable(local.catch(ignore), signal);
        continue;
      }
      const owner = randomStamp();
      const claimedAt = monotonicMs();
      if (await this.#tryClaim(target, owner, signal)) return { claimed: true, owner, claimedAt };
      const stored = await this.#read(key, signal);
      // Gone since (expired, or taken over): claim it again.
      if (stored === undefined) continue;
      const outcome = parseOutcome(stored.value);
      if (outcome === undefined || outcome.s === 'unknown') {
        throw new RepeatedUpdateError(collectionId, earlierFailure(outcome));
      }
      const age = outcome.t - (stored.ttlMs ?? outcome.t);
      if (outcome.s === 'pending') {
        if (await this.#wasAbandoned(key, outcome.o, signal)) {
          await this.#takeOver(target, stored, outcome.o, round, signal);
          continue;
        }
        if (age > outcome.h) throw new RepeatedUpdateError(collectionId, unanswered());
        await sleep(Math.max(1, Math.min(pollDelayMs(round), outcome.h - age)), signal);
        continue;
      }
      if (age <= KNOWN_STATE_MAX_AGE_MS && (await this.#isLatest(target, signal))) {
        return { claimed: false, collection: outcome.c };
      }
      await this.#takeOver(target, stored, outcome.o, round, signal);
    }
    throw new RepeatedUpdateError(collectionId, unanswered());
  }

  /** The atomic claim; a failed one is marked abandoned (it may still land). */
  async #tryClaim(target: Target, owner: string, signal: AbortSignal | undefined) {
    const value = JSON.stringify({
      s: 'pending',
      t: this.#claimTtlMs(target),
      h: target.holdMs,
      o: owner,
    });
    try {
      return await this.#call('claiming a collection update', signal, (store) =>
        store.setIfAbsent(target.key, value, this.#claimTtlMs(target)),
      );
    } catch (error) {
      // A store that did not answer in time may still run the write later: the claim would
      // then stand, never sent. Marked abandoned, a repeat takes it over instead of refusing
      // it for 10 minutes. Not awaited: the store is failing, and the call fails now.
      void this.#markAbandoned(target, owner, this.#storeTimeoutMs);
      throw error;
    }
  }

  /**
   * Takes over claim `owner` of the record (a success that no longer answers a repeat, or a
   * claim never sent): only the instance that wins the ticket named after that claim does,
   * and it deletes the record only if it still holds exactly that claim, with time to spare
   * before the record or the ticket expires; the record is then claimed afresh with
   * `setIfAbsent`, by whichever instance comes first. A record about to expire is left to
   * expire, so the delete cannot land after a fresh claim.
   */
  async #takeOver(
    target: Target,
    seen: StoredValue,
    owner: string,
    round: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const margin = this.#marginMs;
    if (seen.ttlMs !== undefined && seen.ttlMs <= margin) {
      await sleep(seen.ttlMs + 1, signal);
      return;
    }
    const started = monotonicMs();
    const ticket = `${target.key}:takeover:${owner}`;
    const won = await this.#call('taking over a collection update', signal, (store) =>
      store.setIfAbsent(ticket, randomStamp(), margin),
    );
    if (!won) {
      // Another instance is taking it over: see what it did.
      await sleep(pollDelayMs(round), signal);
      return;
    }
    const now = await this.#read(target.key, signal);
    if (now === undefined || now.value !== seen.value) return;
    if (now.ttlMs !== undefined && now.ttlMs <= margin) return;
    // The delete must land while the ticket still stands: too slow, and it is left undone
    // (the record then expires, or is taken over once the ticket has expired).
    if (monotonicMs() - started > margin - 2 * this.#storeTimeoutMs) return;
    await this.#call('taking over a collection update', signal, (store) =>
      store.delete(target.key),
    );
  }

  /** Sends a claimed update and records what came of it. */
  async #sendClaimed(
    target: Target,
    claim: { owner: string; claimedAt: number },
    send: SendUpdate,
    isOutcomeUnknown: (error: unknown) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<RememberedUpdate> {
    const sendBy = claim.claimedAt + target.holdMs;
    let sending: boolean;
    try {
      sending = await this.#beginSend(target, claim.owner, signal);
    } catch (error) {
      await this.#markAbandoned(target, claim.owner, this.#storeTimeoutMs);
      throw error;
    }
    const timeoutMs = Math.min(target.timeoutMs, sendBy - monotonicMs());
    if (timeoutMs < 1) {
      await this.#afterSend(target, claim.owner, sending, monotonicMs(), { kind: 'refused' });
      throw new StoreUnavailableError(
        storeName(this.#store),
        'recording a collection update before sending it took longer than its time; nothing was sent',
      );
    }
    const callEnds = monotonicMs() + timeoutMs;
    let collection: Collection;
    try {
      collection = await send(timeoutMs);
    } catch (error) {
      const result: SendResult = isOutcomeUnknown(error)
        ? { kind: 'unknown', error }
        : { kind: 'refused' };
      await this.#afterSend(target, claim.owner, sending, callEnds, result);
      throw error;
    }
    await this.#afterSend(target, claim.owner, sending, callEnds, { kind: 'applied', collection });
    return { collection, sent: true };
  }

  /**
   * Marks the collection's state unknown while the update is out (the `sending` mark, taken
   * with `setIfAbsent`: its holder clears it; a second update sent meanwhile leaves the
   * `overlap` mark, which only expires) and records the update as the collection's latest,
   * so an earlier success no longer answers a repeat (a repeat of an add after a removal
   * must be sent). Returns whether this update holds the `sending` mark.
   */
  async #beginSend(target: Target, owner: string, signal?: AbortSignal): Promise<boolean> {
    const name = `${target.scope}:${target.collectionId}`;
    // The send ends within the holder's time: a mark left behind (its clearing failed) only
    // withholds the collection's state until then, and a little more.
    const markTtlMs = target.holdMs + this.#marginMs;
    const what = 'recording a collection update before sending it';
    const [sending] = await Promise.all([
      this.#call(what, signal, (store) => store.setIfAbsent(SENDING_KEY + name, owner, markTtlMs)),
      this.#call(what, signal, (store) =>
        store.set(LATEST_KEY + name, target.fingerprint, this.#ttlMs),
      ),
    ]);
    if (!sending) {
      await this.#call(what, signal, (store) => store.set(OVERLAP_KEY + name, owner, markTtlMs));
    }
    return sending;
  }

  /**
   * The writes after sending, within one budget (what is left of the call's time, at least
   * {@link AFTER_SEND_MIN_MS}, at most one store operation), never throwing: the outcome on
   * the claim (a refused update marks its claim abandoned instead, so a repeat may send it);
   * the newest answer as the collection's state (an unknown outcome forgets it), and only
   * then the `sending` mark cleared. A write that fails leaves the claim `pending` (later
   * counted as unknown) or the mark up until it expires (the state is not trusted meanwhile).
   */
  async #afterSend(
    target: Target,
    owner: string,
    sending: boolean,
    callEnds: number,
    result: SendResult,
  ): Promise<void> {
    const budgetMs = Math.min(
      this.#storeTimeoutMs,
      Math.max(AFTER_SEND_MIN_MS, callEnds - monotonicMs()),
    );
    const until = monotonicMs() + budgetMs;
    // Once the budget is spent, nothing more is started (what is already out may still land).
    const within = async (operation: (store: CatalogStore) => Promise<unknown>) => {
      const leftMs = until - monotonicMs();
      if (leftMs >= 1) await this.#quietly(operation, leftMs);
    };
    const name = `${target.scope}:${target.collectionId}`;
    const record = (): Promise<void> => {
      if (result.kind === 'refused')
        return this.#markAbandoned(target, owner, until - monotonicMs());
      const value =
        result.kind === 'applied'
          ? { s: 'applied', t: this.#ttlMs, c: result.collection, o: owner }
          : { s: 'unknown', t: this.#ttlMs, e: errorKind(result.error), o: owner };
      return within((store) => store.set(target.key, JSON.stringify(value), this.#ttlMs));
    };
    const state = async (): Promise<void> => {
      if (result.kind === 'applied')
        await this.#keepNewest(STATE_KEY + name, result.collection, within);
      else if (result.kind === 'unknown') await within((store) => store.delete(STATE_KEY + name));
      if (sending) await within((store) => store.delete(SENDING_KEY + name));
    };
    await Promise.all([record(), state()]);
  }

  async #keepNewest(
    stateKey: string,
    collection: Collection,
    within: (operation: (store: CatalogStore) => Promise<unknown>) => Promise<void>,
  ): Promise<void> {
    let held: unknown;
    await within(async (store) => {
      held = parseJson((await store.get(stateKey))?.value);
    });
    if (isCollection(held) && isOlder(collection, held)) return;
    await within((store) =>
      store.set(stateKey, JSON.stringify(collection), KNOWN_STATE_MAX_AGE_MS),
    );
  }

  /**
   * Records that claim `owner` was never sent (true whenever it lands, so it may land late).
   * The first write is awaited within `timeoutMs`; if it fails (the store is failing, or
   * holds commands back while it is), it is tried again in the background, less and less
   * often, for as long as the claim may live: a claim that lands once the store is back then
   * stops blocking the update it never sent. Never throws.
   */
  async #markAbandoned(target: Target, owner: string, timeoutMs: number): Promise<void> {
    const key = `${target.key}:abandoned:${owner}`;
    const ttlMs = this.#claimTtlMs(target);
    const write = (limitMs: number) =>
      this.#call(
        'recording a collection update',
        undefined,
        (store) => store.set(key, '1', ttlMs),
        limitMs,
      )
        .then(() => true)
        .catch(() => false);
    if (await write(Math.max(1, timeoutMs))) return;
    const giveUpAt = monotonicMs() + ttlMs;
    const retry = (delayMs: number) => {
      if (monotonicMs() + delayMs > giveUpAt) return;
      // Unref'd: these retries never keep a process alive.
      unrefTimeout(() => {
        void write(this.#storeTimeoutMs).then((done) => {
          if (!done) retry(Math.min(ABANDON_RETRY_MAX_MS, 2 * delayMs));
        });
      }, delayMs);
    };
    retry(ABANDON_RETRY_FIRST_MS);
  }

  async #wasAbandoned(key: string, owner: string, signal?: AbortSignal): Promise<boolean> {
    return (
      (await this.#get(`${key}:abandoned:${owner}`, 'reading a collection update', signal)) !==
      undefined
    );
  }

  async #isLatest(target: Target, signal?: AbortSignal): Promise<boolean> {
    const latest = await this.#get(
      `${LATEST_KEY}${target.scope}:${target.collectionId}`,
      'reading a collection',
      signal,
    );
    // None: nothing else is known to have been sent since.
    return latest === undefined || latest === target.fingerprint;
  }

  /**
   * Life of a claim and of the marks of a send: at least the memory's, and longer than its
   * holder may take (its `holdMs`, then the writes after sending) with room to spare, so a
   * claim never expires while its update may still be sent.
   */
  #claimTtlMs(target: Target): number {
    return Math.max(this.#ttlMs, target.holdMs + this.#marginMs);
  }

  #read(key: string, signal?: AbortSignal): Promise<StoredValue | undefined> {
    return this.#call('reading a collection update', signal, (store) => store.get(key));
  }

  async #get(key: string, what: string, signal?: AbortSignal): Promise<string | undefined> {
    return (await this.#call(what, signal, (store) => store.get(key)))?.value;
  }

  #call<T>(
    what: string,
    signal: AbortSignal | undefined,
    operation: (store: CatalogStore) => Promise<T>,
    timeoutMs: number = this.#storeTimeoutMs,
  ): Promise<T> {
    return callStore(this.#store, what, () => operation(this.#store), { timeoutMs, signal });
  }

  /** A write after the decision to send: bounded in time, its failure ignored. */
  async #quietly(
    operation: (store: CatalogStore) => Promise<unknown>,
    timeoutMs: number,
  ): Promise<void> {
    await this.#call('recording a collection update', undefined, operation, timeoutMs).catch(
      ignore,
    );
  }
}

/** The cause of a {@link RepeatedUpdateError} for an outcome recorded by any instance. */
function earlierFailure(outcome: Outcome | undefined): CatalogError {
  const kind = outcome?.s === 'unknown' ? outcome.e : 'an unreadable record';
  return new CatalogError(
    'update_outcome_unknown',
    `The earlier identical call failed with ${kind}`,
  );
}

function unanswered(): CatalogError {
  return new CatalogError(
    'update_outcome_unknown',
    'An identical update sent earlier (possibly by another instance) is still unanswered',
  );
}
