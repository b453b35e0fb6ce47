import { abortable, runWithinTime, SingleFlight, sleep } from '../async.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { StoreUnavailableError, TokenMintError } from '../errors/conversation-errors.js';
import { AbortError } from '../errors/transport-errors.js';
import { isRecord } from '../is-record.js';
import type { CatalogLogger } from '../logger.js';
import { type CatalogStore, checkStore, type StoredValue } from '../store/catalog-store.js';
import { MemoryCatalogStore } from '../store/memory-store.js';
import { readThroughLocked } from '../store/read-through.js';

/** A moment as an application gives it: a `Date`, an ISO 8601 or HTTP-date string, epoch ms. */
type InstantInput = Date | string | number;

/** What a mint function returns: one freshly minted conversation token. */
export interface MintedToken {
  token: string;
  /** When the token stops working, on the server's clock. */
  expiresAt: InstantInput;
  /** The server's time of its answer (`Date`): the life is read on its clock, not the local one. */
  serverDate?: InstantInput;
  /** The life asked for, in seconds: never held longer (browsers hide cross-origin `Date`). */
  ttlSeconds?: number;
}

/**
 * Mints one conversation token: on a server see `createHttpTokenMinter`, in a browser call
 * your backend. `signal` aborts when the mint times out or the manager is closed.
 */
export type TokenMinter = (context: { signal: AbortSignal }) => Promise<MintedToken>;

/** A held token, its instants on the monotonic clock: a wall clock that steps changes nothing. */
type HeldToken = ReturnType<typeof held>;

/** Options of {@link ConversationTokenManager}. */
export interface ConversationTokenManagerOptions {
  /** Mints one token; called once per token life. */
  mint: TokenMinter;
  /** Store key of this chat's token, e.g. `chat:${chatId}:token`. Required with `store`. */
  key?: string;
  /** Where the token is kept, shared by instances (e.g. Redis); default a private memory store. */
  store?: CatalogStore;
  /** Refresh when less than this is left (default 60,000 ms), capped at half the token's life. */
  refreshMarginMs?: number;
  /** A longer mint is aborted and counts as failed (default 15,000 ms). */
  mintTimeoutMs?: number;
  /** A clock in epoch ms for tests, in place of both `Date.now` and `performance.now`. */
  now?: () => number;
  /** Receives the fallbacks to a still-valid token and the refreshes after a 401. */
  logger?: CatalogLogger;
}

/** Per-call options: `signal` cancels this caller's wait; a shared mint keeps going. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** When a refresh fails, the current token is still handed out if it has this much life left. */
const MIN_FALLBACK_LIFE_MS = 5_000;

const optionError = (problem: string) =>
  new ConfigurationError(`ConversationTokenManager: option ${problem}`);

/**
 * Holds the conversation token of one chat: mints on first use, refreshes near expiry, never
 * hands out an expired one. Concurrent callers, and instances sharing a {@link CatalogStore},
 * share one mint; after a failed one the next call tries again after a backoff.
 */
export class ConversationTokenManager {
  readonly #mint: TokenMinter;
  readonly #store: CatalogStore;
  readonly #key: string;
  readonly #marginMs: number;
  readonly #mintTimeoutMs: number;
  readonly #wallNow: () => number;
  readonly #now: () => number;
  readonly #logger: CatalogLogger | undefined;
  readonly #lifecycle = new AbortController();
  readonly #flight = new SingleFlight<HeldToken>();
  #held: HeldToken | undefined;
  #failures = 0;
  #retryAt = 0;

  /** @throws ConfigurationError naming a bad option. */
  constructor(options: ConversationTokenManagerOptions) {
    if (typeof options?.mint !== 'function') throw optionError('mint must be a function');
    // With a shared store, a default key would hand one chat's token to every other chat.
    if (options.store && !options.key?.trim()) throw optionError('key is required with a store');
    for (const name of ['refreshMarginMs', 'mintTimeoutMs'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
        throw optionError(`${name} must be a non-negative number`);
      }
    }
    this.#now = options.now ?? (() => performance.now());
    this.#wallNow = options.now ?? Date.now;
    this.#mint = options.mint;
    this.#store = checkStore(options.store ?? new MemoryCatalogStore({ now: this.#now }));
    this.#key = options.key ?? 'conversation-token';
    this.#marginMs = options.refreshMarginMs ?? 60_000;
    this.#mintTimeoutMs = options.mintTimeoutMs ?? 15_000;
    this.#logger = options.logger;
  }

  /** The session's token, cached while fresh; rejects with TokenMintError when none can be had. */
  async getToken(options: CallOptions = {}): Promise<string> {
    return (await this.#usableToken(options)).token;
  }

  /** The token and its expiry on this clock (a backend sends `serverDate: new Date()` along). */
  async getTokenInfo(options: CallOptions = {}): Promise<{ token: string; expiresAt: Date }> {
    const held = await this.#usableToken(options);
    const leftMs = held.expiresAt - this.#now();
    return { token: held.token, expiresAt: new Date(this.#wallNow() + leftMs) };
  }

  /** Runs `call` with the token; after a 401 (`status` or Response), refreshes, runs it again. */
  async withToken<T>(call: (token: string) => Promise<T>, options: CallOptions = {}): Promise<T> {
    const token = await this.getToken(options);
    try {
      const result = await call(token);
      if (!(result instanceof Response && result.status === 401)) return result;
      // Frees the connection; not awaited: a tee'd body's cancel waits for the body's end.
      void result.body?.cancel().catch(() => undefined);
    } catch (error) {
      // Duck-typed, so two bundled copies of catalogkit still agree.
      if (!(error instanceof Error && (error as { status?: unknown }).status === 401)) throw error;
    }
    this.#logger?.debug?.('conversation token refused with 401; refreshing once');
    return call((await abortable(this.#replaceRefused(token), options.signal)).token);
  }

  /** Aborts a running mint; later calls reject. */
  close(): void {
    this.#lifecycle.abort(new AbortError('ConversationTokenManager (closed)'));
  }

  async #usableToken(options: CallOptions): Promise<HeldToken> {
    if (this.#lifecycle.signal.aborted) throw this.#lifecycle.signal.reason;
    const held = this.#held;
    if (held && this.#now() < held.refreshAt) return held;
    // While the last failed refresh backs off, a token with life left beats a wait.
    const current = this.#stillValid(held);
    if (current && this.#backingOff()) return current;
    try {
      return await abortable(this.#refresh(undefined), options.signal);
    } catch (error) {
      const fallback = this.#stillValid(held);
      if (!fallback || options.signal?.aborted || this.#lifecycle.signal.aborted) throw error;
      this.#logger?.warn?.('conversation token refresh failed; using the current token', {
        error: String(error),
        expiresInMs: fallback.expiresAt - this.#now(),
      });
      return fallback;
    }
  }

  #stillValid(held: HeldToken | undefined): HeldToken | undefined {
    const left = held ? held.expiresAt - this.#now() : 0;
    return left > MIN_FALLBACK_LIFE_MS ? held : undefined;
  }

  #backingOff(): boolean {
    return this.#failures > 0 && this.#now() < this.#retryAt;
  }

  /** A new token in place of `refused`, unless another caller already replaced it. */
  async #replaceRefused(refused: string): Promise<HeldToken> {
    const held = this.#held;
    if (held && held.token !== refused && this.#now() < held.expiresAt) return held;
    if (held?.token === refused) this.#held = undefined;
    const fresh = await this.#refresh(refused);
    // A flight that started before the 401 may have re-read the refused token.
    return fresh.token === refused ? this.#refresh(refused) : fresh;
  }

  #refresh(refused: string | undefined): Promise<HeldToken> {
    const { signal } = this.#lifecycle;
    // Nothing retries on its own: the next caller waits out the backoff, then mints.
    const waitOut = async () => {
      if (this.#backingOff()) await sleep(this.#retryAt - this.#now(), signal);
    };
    return this.#flight.run(async () => {
      try {
        const held = await this.#readOrMint(refused, waitOut);
        this.#failures = 0;
        this.#held = held;
        return held;
      } catch (error) {
        // Closing is not a failed mint: no backoff, and callers get the AbortError.
        if (signal.aborted) throw signal.reason;
        throw this.#failed(error);
      }
    });
  }

  /**
   * Counts a failed mint and starts its backoff: 1 s doubling to 30 s, half of it random so
   * clients that failed together do not retry together. A StoreUnavailableError is passed on
   * as it is (one type for a failing store); anything else becomes a TokenMintError.
   */
  #failed(error: unknown): TokenMintError | StoreUnavailableError {
    this.#failures += 1;
    const ceiling = Math.min(30_000, 1_000 * 2 ** (this.#failures - 1));
    const delayMs = Math.round(ceiling / 2 + (ceiling / 2) * Math.random());
    this.#retryAt = this.#now() + delayMs;
    if (StoreUnavailableError.is(error)) return error;
    const what = error instanceof Error ? error.message : String(error);
    return new TokenMintError(
      `Could not obtain a conversation token (attempt ${this.#failures}): ${what}. The next attempt waits ${delayMs} ms.`,
      { cause: error, attempt: this.#failures, retryAt: this.#wallNow() + delayMs },
    );
  }

  /** The stored token while fresh and not `refused`, else one minted under the store's lock. */
  #readOrMint(refused: string | undefined, beforeLock: () => Promise<void>): Promise<HeldToken> {
    const now = this.#now;
    const accept = (stored: StoredValue) => {
      const held = decodeStored(stored.value, stored.ttlMs, now(), this.#marginMs);
      return held && held.token !== refused && now() < held.refreshAt ? held : undefined;
    };
    const create = async () => {
      const wallSentAt = this.#wallNow();
      const sentAt = now();
      const minted = await runWithinTime((signal) => this.#mint({ signal }), {
        timeoutMs: this.#mintTimeoutMs,
        closeSignal: this.#lifecycle.signal,
        what: 'Minting a conversation token',
      });
      const held = heldFromMint(minted, sentAt, wallSentAt, now(), this.#marginMs);
      const encoded = JSON.stringify({ token: held.token, lifetimeMs: held.lifetimeMs });
      // Whole ms, rounded down: a store that rounds fractions up would keep it past its life.
      return { value: held, encoded, ttlMs: Math.floor(held.expiresAt - now()) };
    };
    return readThroughLocked({
      store: this.#store,
      key: this.#key,
      accept,
      create,
      beforeLock,
      // The lease outlives the longest mint by the store read before and the write after (an
      // instance frozen past it costs at most one extra token).
      leaseMs: this.#mintTimeoutMs + 1_000,
      lockWaitMs: this.#mintTimeoutMs + 5_000,
      signal: this.#lifecycle.signal,
    });
  }
}

const unusable = (problem: string) =>
  new Error(`the mint function returned an unusable result: ${problem}`);

/**
 * `lifetimeMs` (the full life when minted) lets other instances use the same margin, capped
 * at half the life: a longer one would mint per message.
 */
function held(token: string, expiresAt: number, lifetimeMs: number, marginMs: number) {
  return {
    token,
    expiresAt,
    lifetimeMs,
    refreshAt: expiresAt - Math.min(marginMs, lifetimeMs / 2),
  };
}

/**
 * A mint's result on the monotonic clock. The life counts from the start of the mint
 * (`sentAt`: the server created the token later, so it errs early):
 * - with a usable `serverDate`, `expiresAt - serverDate`, both on the server's clock (one
 *   that cannot be parsed, or is not before `expiresAt`, is a proxy's: ignored);
 * - else `expiresAt` on the local wall clock, unless that leaves under half the ttl (the
 *   clock runs far ahead: it would refuse a fresh token or mint per message), then the ttl;
 * - `ttlSeconds` always caps it. An unusable result throws, naming the field.
 */
function heldFromMint(
  minted: MintedToken,
  sentAt: number,
  wallSentAt: number,
  receivedAt: number,
  marginMs: number,
): HeldToken {
  if (typeof minted?.token !== 'string' || minted.token.trim() === '') {
    throw unusable('token must be a non-empty string');
  }
  const expiresMs = instantMs(minted.expiresAt, 'expiresAt');
  const { ttlSeconds, serverDate } = minted;
  if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
    throw unusable('ttlSeconds must be a positive number of seconds');
  }
  const ttlMs = ttlSeconds === undefined ? Number.POSITIVE_INFINITY : ttlSeconds * 1000;
  const wallLife = expiresMs - wallSentAt;
  const byWall = ttlSeconds !== undefined && wallLife < ttlMs / 2 ? ttlMs : wallLife;
  const expiresAt = sentAt + Math.min(lifeByServerDate(serverDate, expiresMs) ?? byWall, ttlMs);
  const lifetimeMs = expiresAt - receivedAt;
  if (lifetimeMs <= 0) {
    // Without serverDate or ttlSeconds, a local clock that runs ahead cannot be told apart.
    const hint =
      serverDate === undefined && ttlSeconds === undefined
        ? '; return serverDate or ttlSeconds from the mint function so a wrong local clock is corrected'
        : '';
    throw unusable(
      `expiresAt is not in the future (the token expired ${-lifetimeMs} ms ago)${hint}`,
    );
  }
  return held(minted.token, expiresAt, lifetimeMs, marginMs);
}

function lifeByServerDate(serverDate: InstantInput | undefined, expiresMs: number) {
  if (serverDate === undefined) return undefined;
  try {
    const dateMs = instantMs(serverDate, 'serverDate');
    // `Date` has whole seconds: take the end of that second, so the life errs short.
    const life = expiresMs - (dateMs % 1000 === 0 ? dateMs + 999 : dateMs);
    return life > 0 ? life : undefined;
  } catch {
    return undefined; // two headers joined by a proxy, `Date: now`: read as if none came
  }
}

/** A stored token with `ttlMs` left; undefined for anything else (then one is minted). */
function decodeStored(value: string, ttlMs: number | undefined, now: number, marginMs: number) {
  if (ttlMs === undefined || ttlMs <= 0) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!isRecord(record) || typeof record.token !== 'string' || record.token === '')
    return undefined;
  const { lifetimeMs } = record;
  const life = typeof lifetimeMs === 'number' && lifetimeMs > 0 ? lifetimeMs : ttlMs;
  return held(record.token, now + ttlMs, life, marginMs);
}

/** An ISO date and time without `Z` or an offset, e.g. Python's `utcnow().isoformat()`. */
const LOCAL_ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)$/;

function instantMs(value: InstantInput | undefined, field: string): number {
  // Below 1e11 (1973) a number is almost surely epoch seconds passed by mistake.
  if (typeof value === 'number' && value < 1e11) {
    throw unusable(`${field} must be epoch milliseconds; ${value} looks like seconds`);
  }
  // Without an offset the service's instant is UTC (Date.parse would read local time).
  const local = typeof value === 'string' ? LOCAL_ISO.exec(value) : null;
  const ms =
    typeof value === 'string'
      ? Date.parse(local ? `${local[1]}T${local[2]}Z` : value)
      : Number(value instanceof Date || typeof value === 'number' ? value : Number.NaN);
  // The value is not quoted: a mint answer with its fields swapped holds the token there.
  if (!Number.isFinite(ms)) throw unusable(`${field} is not a parseable date (${typeof value})`);
  return ms;
}
