import { abortable, SingleFlight, unrefTimeout } from '../async.js';
import { AbortError } from '../errors/transport-errors.js';
import { MintFailures } from './backoff.js';
import {
  type CallOptions,
  type ConversationTokenManagerOptions,
  type ResolvedManagerOptions,
  resolveManagerOptions,
} from './token-manager-options.js';
import { type HeldToken, readOrMintToken } from './token-source.js';

/** A token and its expiry, as {@link ConversationTokenManager.getTokenInfo} returns it. */
export interface ConversationTokenInfo {
  token: string;
  /** When the token stops working, on the local wall clock as it reads now. */
  expiresAt: Date;
}

/** When a refresh fails, the current token is still handed out if it has this much life left. */
const MIN_FALLBACK_LIFE_MS = 5_000;

/**
 * Holds the conversation token of one chat session: mints on first use, hands out the
 * cached token afterwards, refreshes near expiry, and never hands out an expired token.
 * Concurrent callers share one mint; a failed mint is not cached, and the next call tries
 * again after a backoff. With a shared {@link CatalogStore} (e.g. Redis), instances share
 * the token and a lock keeps them from minting for the session at the same time.
 */
export class ConversationTokenManager {
  readonly #options: ResolvedManagerOptions;
  readonly #lifecycle = new AbortController();
  readonly #flight = new SingleFlight<HeldToken>();
  readonly #failures: MintFailures;
  #held: HeldToken | undefined;
  #usedSinceMint = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ConversationTokenManagerOptions) {
    this.#options = resolveManagerOptions(options);
    this.#failures = new MintFailures(this.#options);
  }

  /**
   * The session's token: cached while fresh, else refreshed (one mint shared by all
   * concurrent callers). Rejects with TokenMintError when no usable token can be had.
   */
  async getToken(options: CallOptions = {}): Promise<string> {
    return (await this.#usableToken(options)).token;
  }

  /**
   * The token and when it expires (on this machine's clock), e.g. for a backend endpoint
   * that hands the token to a browser: send `expiresAt` and `serverDate: new Date()` along
   * so the browser can correct its own clock.
   */
  async getTokenInfo(options: CallOptions = {}): Promise<ConversationTokenInfo> {
    const held = await this.#usableToken(options);
    // The life left is measured on the monotonic clock; dated on the wall clock as it is now.
    const leftMs = held.expiresAt - this.#options.monotonicNow();
    return { token: held.token, expiresAt: new Date(this.#options.now() + leftMs) };
  }

  /**
   * Runs `call` with the token. When it fails with HTTP 401 (an error with `status` 401,
   * such as AuthenticationError, or a 401 `Response`), the token is refreshed once and
   * `call` runs once more with the new token; a second 401 is returned or thrown as is.
   */
  async withToken<T>(call: (token: string) => Promise<T>, options: CallOptions = {}): Promise<T> {
    const token = await this.getToken(options);
    try {
      const result = await call(token);
      if (!isUnauthorizedResponse(result)) return result;
      await discardBody(result);
    } catch (error) {
      if (!isUnauthorizedError(error)) throw error;
    }
    this.#options.logger?.debug?.('conversation token refused with 401; refreshing once');
    const fresh = await abortable(this.#replaceRefused(token), options.signal);
    return call(this.#use(fresh).token);
  }

  /** Forgets the session's token here and in the store (e.g. when the chat ends). */
  async clear(): Promise<void> {
    this.#held = undefined;
    this.#cancelTimer();
    await this.#options.store.delete(this.#options.key);
  }

  /** Stops the refresh timer and aborts a running mint; later calls reject. */
  close(): void {
    this.#cancelTimer();
    this.#lifecycle.abort(new AbortError('ConversationTokenManager (closed)'));
  }

  async #usableToken(options: CallOptions): Promise<HeldToken> {
    this.#assertOpen();
    const held = this.#held;
    if (held && this.#options.monotonicNow() < held.refreshAt) return this.#use(held);
    // While the last failed refresh backs off, a token with life left beats a wait.
    const current = this.#stillValid(held);
    if (current && this.#failures.backingOff()) return this.#use(current);
    try {
      return this.#use(await abortable(this.#refresh(undefined), options.signal));
    } catch (error) {
      const fallback = this.#stillValid(held);
      if (!fallback || options.signal?.aborted || this.#lifecycle.signal.aborted) throw error;
      this.#options.logger?.warn?.('conversation token refresh failed; using the current token', {
        error: String(error),
        expiresInMs: fallback.expiresAt - this.#options.monotonicNow(),
      });
      return this.#use(fallback);
    }
  }

  #use(held: HeldToken): HeldToken {
    this.#usedSinceMint = true;
    return held;
  }

  #stillValid(held: HeldToken | undefined): HeldToken | undefined {
    return held && held.expiresAt - this.#options.monotonicNow() > MIN_FALLBACK_LIFE_MS
      ? held
      : undefined;
  }

  /** A new token in place of `refused`, unless another caller already replaced it. */
  async #replaceRefused(refused: string): Promise<HeldToken> {
    const held = this.#held;
    const replaced = held && held.token !== refused;
    if (replaced && this.#options.monotonicNow() < held.expiresAt) return held;
    if (held?.token === refused) this.#held = undefined;
    const fresh = await this.#refresh(refused);
    // A flight that started before the 401 may have re-read the refused token.
    return fresh.token === refused ? this.#refresh(refused) : fresh;
  }

  #refresh(refused: string | undefined): Promise<HeldToken> {
    return this.#flight.run(async () => {
      try {
        const held = await readOrMintToken(this.#options, {
          refused,
          beforeLock: () => this.#failures.waitOut(this.#lifecycle.signal),
          closeSignal: this.#lifecycle.signal,
        });
        this.#failures.reset();
        this.#hold(held);
        return held;
      } catch (error) {
        // Closing is not a failed mint: no backoff, and callers get the AbortError.
        if (this.#lifecycle.signal.aborted) throw this.#lifecycle.signal.reason;
        throw this.#failures.record(error);
      }
    });
  }

  #hold(held: HeldToken): void {
    this.#held = held;
    this.#usedSinceMint = false;
    this.#cancelTimer();
    if (this.#options.refreshAhead) {
      this.#timer = unrefTimeout(
        () => this.#refreshInBackground(),
        held.refreshAt - this.#options.monotonicNow(),
      );
    }
  }

  #refreshInBackground(): void {
    this.#timer = undefined;
    // An idle chat mints nothing: only a token that was used gets a successor.
    if (!this.#usedSinceMint || this.#lifecycle.signal.aborted) return;
    this.#refresh(undefined).catch((error: unknown) => {
      this.#options.logger?.warn?.('background refresh of the conversation token failed', {
        error: String(error),
      });
    });
  }

  #cancelTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #assertOpen(): void {
    if (this.#lifecycle.signal.aborted) throw this.#lifecycle.signal.reason;
  }
}

/**
 * True for an error that carries HTTP status 401: catalogkit's AuthenticationError and
 * errors of other HTTP libraries that expose `status` (duck-typed, so two bundled copies
 * of catalogkit still agree).
 */
function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && (error as { status?: unknown }).status === 401;
}

/** True for a fetch `Response` with status 401. */
function isUnauthorizedResponse(value: unknown): value is Response {
  return typeof Response !== 'undefined' && value instanceof Response && value.status === 401;
}

/** Frees the connection behind a response whose body will never be read. */
async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
