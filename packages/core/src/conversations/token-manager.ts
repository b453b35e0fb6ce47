import { abortable, monotonicMs, SingleFlight, sleep, unrefTimeout } from '../async.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { StoreUnavailableError, TokenMintError } from '../errors/conversation-errors.js';
import { AbortError } from '../errors/transport-errors.js';
import type { CatalogLogger } from '../logger.js';
import type { CatalogStore } from '../store/catalog-store.js';
import { MemoryCatalogStore } from '../store/memory-store.js';
import {
  type HeldToken,
  readOrMintToken,
  type TokenMinter,
  type TokenSource,
} from './token-source.js';

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
  /**
   * A longer mint is aborted and counts as failed (default 15,000 ms). The store lock's lease
   * is this + 1 s, so no second instance mints meanwhile (one that stalls past the lease, a
   * frozen serverless instance, costs at most one extra token).
   */
  mintTimeoutMs?: number;
  /** How long to wait for another instance that is minting (default mintTimeoutMs + 5,000). */
  lockWaitMs?: number;
  /** Backoff after failed mints: `initialMs` (default 1,000) doubling up to `maxMs` (30,000), jittered. */
  backoff?: { initialMs?: number; maxMs?: number };
  /**
   * Refresh in the background at the refresh moment, so no message waits for a mint; only
   * a token used since its mint gets a successor. The timer never keeps Node alive.
   */
  refreshAhead?: boolean;
  /**
   * Wall clock, epoch ms (default `Date.now`): reads `expiresAt` without `serverDate` and
   * dates `getTokenInfo().expiresAt`. Given alone (a fake clock), it drives both clocks.
   */
  now?: () => number;
  /**
   * Monotonic clock in ms (default `performance.now`): measures a held token's life, the
   * backoff and the default store's TTLs, so a stepped wall clock changes none of them.
   */
  monotonicNow?: () => number;
  /** Random source for the backoff jitter (default `Math.random`). */
  random?: () => number;
  /** Receives background refresh failures and fallbacks. */
  logger?: CatalogLogger;
}

/** Per-call options: `signal` cancels this caller's wait; a shared mint keeps going. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** A token and its expiry, as {@link ConversationTokenManager.getTokenInfo} returns it. */
export interface ConversationTokenInfo {
  token: string;
  /** When the token stops working, on the local wall clock as it reads now. */
  expiresAt: Date;
}

/** When a refresh fails, the current token is still handed out if it has this much life left. */
const MIN_FALLBACK_LIFE_MS = 5_000;

const optionError = (problem: string) =>
  new ConfigurationError(`ConversationTokenManager: option ${problem}`);

/**
 * Holds the conversation token of one chat: mints on first use, hands out the cached token,
 * refreshes near expiry, never hands out an expired one. Concurrent callers share one mint;
 * a failed mint is not cached, and the next call tries again after a backoff. With a shared
 * {@link CatalogStore}, instances share the token and a lock keeps them from minting together.
 */
export class ConversationTokenManager {
  readonly #source: TokenSource;
  readonly #options: ConversationTokenManagerOptions;
  readonly #lifecycle = new AbortController();
  readonly #flight = new SingleFlight<HeldToken>();
  #held: HeldToken | undefined;
  #usedSinceMint = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Consecutive failed mints, and when the next may be tried (monotonic). */
  #failures = 0;
  #retryAt = 0;

  /** @throws ConfigurationError naming a bad option. */
  constructor(options: ConversationTokenManagerOptions) {
    if (typeof options?.mint !== 'function') throw optionError('mint must be a function');
    // With a shared store, a default key would hand one chat's token to every other chat.
    if (options.store && !options.key?.trim()) throw optionError('key is required with a store');
    for (const name of ['refreshMarginMs', 'mintTimeoutMs', 'lockWaitMs'] as const) {
      const value = options[name];
      if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
        throw optionError(`${name} must be a non-negative number`);
      }
    }
    const monotonicNow = options.monotonicNow ?? options.now ?? monotonicMs;
    const mintTimeoutMs = options.mintTimeoutMs ?? 15_000;
    this.#options = options;
    this.#source = {
      mint: options.mint,
      store: options.store ?? new MemoryCatalogStore({ now: monotonicNow }),
      key: options.key ?? 'conversation-token',
      refreshMarginMs: options.refreshMarginMs ?? 60_000,
      mintTimeoutMs,
      lockWaitMs: options.lockWaitMs ?? mintTimeoutMs + 5_000,
      now: options.now ?? Date.now,
      monotonicNow,
    };
  }

  /** The session's token, cached while fresh; rejects with TokenMintError when none can be had. */
  async getToken(options: CallOptions = {}): Promise<string> {
    return (await this.#usableToken(options)).token;
  }

  /**
   * The token and its expiry on this machine's clock, e.g. for a backend handing it to a
   * browser: send `serverDate: new Date()` along so the browser corrects its own clock.
   */
  async getTokenInfo(options: CallOptions = {}): Promise<ConversationTokenInfo> {
    const held = await this.#usableToken(options);
    const leftMs = held.expiresAt - this.#source.monotonicNow();
    return { token: held.token, expiresAt: new Date(this.#source.now() + leftMs) };
  }

  /**
   * Runs `call` with the token. On HTTP 401 (an error with `status` 401, or a 401
   * `Response`) the token is refreshed once and `call` runs once more; a second 401 stands.
   */
  async withToken<T>(call: (token: string) => Promise<T>, options: CallOptions = {}): Promise<T> {
    const token = await this.getToken(options);
    try {
      const result = await call(token);
      if (!(result instanceof Response && result.status === 401)) return result;
      await result.body?.cancel().catch(() => undefined); // frees the connection
    } catch (error) {
      // Duck-typed, so two bundled copies of catalogkit still agree.
      if (!(error instanceof Error && (error as { status?: unknown }).status === 401)) throw error;
    }
    this.#options.logger?.debug?.('conversation token refused with 401; refreshing once');
    return call(this.#use(await abortable(this.#replaceRefused(token), options.signal)).token);
  }

  /** Forgets the session's token here and in the store (e.g. when the chat ends). */
  async clear(): Promise<void> {
    this.#held = undefined;
    this.#cancelTimer();
    await this.#source.store.delete(this.#source.key);
  }

  /** Stops the refresh timer and aborts a running mint; later calls reject. */
  close(): void {
    this.#cancelTimer();
    this.#lifecycle.abort(new AbortError('ConversationTokenManager (closed)'));
  }

  async #usableToken(options: CallOptions): Promise<HeldToken> {
    if (this.#lifecycle.signal.aborted) throw this.#lifecycle.signal.reason;
    const held = this.#held;
    if (held && this.#source.monotonicNow() < held.refreshAt) return this.#use(held);
    // While the last failed refresh backs off, a token with life left beats a wait.
    const current = this.#stillValid(held);
    if (current && this.#backingOff()) return this.#use(current);
    try {
      return this.#use(await abortable(this.#refresh(undefined), options.signal));
    } catch (error) {
      const fallback = this.#stillValid(held);
      if (!fallback || options.signal?.aborted || this.#lifecycle.signal.aborted) throw error;
      this.#options.logger?.warn?.('conversation token refresh failed; using the current token', {
        error: String(error),
        expiresInMs: fallback.expiresAt - this.#source.monotonicNow(),
      });
      return this.#use(fallback);
    }
  }

  #use(held: HeldToken): HeldToken {
    this.#usedSinceMint = true;
    return held;
  }

  #stillValid(held: HeldToken | undefined): HeldToken | undefined {
    const left = held ? held.expiresAt - this.#source.monotonicNow() : 0;
    return left > MIN_FALLBACK_LIFE_MS ? held : undefined;
  }

  #backingOff(): boolean {
    return this.#failures > 0 && this.#source.monotonicNow() < this.#retryAt;
  }

  /** A new token in place of `refused`, unless another caller already replaced it. */
  async #replaceRefused(refused: string): Promise<HeldToken> {
    const held = this.#held;
    if (held && held.token !== refused && this.#source.monotonicNow() < held.expiresAt) return held;
    if (held?.token === refused) this.#held = undefined;
    const fresh = await this.#refresh(refused);
    // A flight that started before the 401 may have re-read the refused token.
    return fresh.token === refused ? this.#refresh(refused) : fresh;
  }

  #refresh(refused: string | undefined): Promise<HeldToken> {
    const { signal } = this.#lifecycle;
    // Nothing retries on its own: the next caller waits out the backoff, then mints.
    const waitOut = async () => {
      if (this.#backingOff()) await sleep(this.#retryAt - this.#source.monotonicNow(), signal);
    };
    return this.#flight.run(async () => {
      try {
        const held = await readOrMintToken(this.#source, refused, waitOut, signal);
        this.#failures = 0;
        this.#hold(held);
        return held;
      } catch (error) {
        // Closing is not a failed mint: no backoff, and callers get the AbortError.
        if (signal.aborted) throw signal.reason;
        throw this.#failed(error);
      }
    });
  }

  /**
   * Counts a failed mint and starts its backoff ("equal jitter": half fixed so retries stay
   * spaced, half random so clients that failed together do not retry together). A store's
   * StoreUnavailableError is passed on as it is (one type for a failing store, wherever it
   * failed); anything else becomes a TokenMintError with the error as `cause`.
   */
  #failed(error: unknown): TokenMintError | StoreUnavailableError {
    this.#failures += 1;
    const { initialMs = 1_000, maxMs = 30_000 } = this.#options.backoff ?? {};
    const ceiling = Math.min(maxMs, initialMs * 2 ** (this.#failures - 1));
    const delayMs = Math.round(
      ceiling / 2 + (ceiling / 2) * (this.#options.random ?? Math.random)(),
    );
    this.#retryAt = this.#source.monotonicNow() + delayMs;
    if (StoreUnavailableError.is(error)) return error;
    const what = error instanceof Error ? error.message : String(error);
    return new TokenMintError(
      `Could not obtain a conversation token (attempt ${this.#failures}): ${what}. The next attempt waits ${delayMs} ms.`,
      { cause: error, attempt: this.#failures, retryAt: this.#source.now() + delayMs },
    );
  }

  #hold(held: HeldToken): void {
    this.#held = held;
    this.#usedSinceMint = false;
    this.#cancelTimer();
    if (!this.#options.refreshAhead) return;
    const inMs = held.refreshAt - this.#source.monotonicNow();
    this.#timer = unrefTimeout(() => {
      this.#timer = undefined;
      // An idle chat mints nothing: only a token that was used gets a successor.
      if (!this.#usedSinceMint || this.#lifecycle.signal.aborted) return;
      this.#refresh(undefined).catch((error: unknown) => {
        this.#options.logger?.warn?.('background refresh of the conversation token failed', {
          error: String(error),
        });
      });
    }, inMs);
  }

  #cancelTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
