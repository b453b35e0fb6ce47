import { AbortError } from '../errors/transport-errors.js';
import { backoffDelayMs } from './backoff.js';
import { TokenMintError } from './errors.js';
import {
  decodeStoredToken,
  encodeStoredToken,
  type HeldToken,
  holdMintedToken,
} from './lifetime.js';
import { mintWithin } from './mint-within.js';
import { readThroughLocked } from './read-through.js';
import { SingleFlight } from './single-flight.js';
import { abortable, sleep, unrefTimeout } from './sleep.js';
import type { StoredValue } from './store.js';
import {
  type ConversationTokenManagerOptions,
  type ResolvedManagerOptions,
  resolveManagerOptions,
} from './token-manager-options.js';
import type { CallOptions } from './types.js';
import { discardBody, isUnauthorizedError, isUnauthorizedResponse } from './unauthorized.js';

/** A token and its expiry, as {@link ConversationTokenManager.getTokenInfo} returns it. */
export interface ConversationTokenInfo {
  token: string;
  /** When the token stops working, on the local clock. */
  expiresAt: Date;
}

/** When a refresh fails, the current token is still handed out if it has this much life left. */
const MIN_FALLBACK_LIFE_MS = 5_000;

/** Raised inside the manager when a mint result is unusable; becomes a TokenMintError. */
class UnusableMintResult extends Error {}

/**
 * Holds the conversation token of one chat session: mints on first use, hands out the
 * cached token afterwards, refreshes near expiry, and never hands out an expired token.
 * Concurrent callers share one mint; a failed mint is not cached, and the next call tries
 * again after a backoff. With a shared {@link SessionStore} (e.g. Redis), instances share
 * the token and a lock keeps them from minting for the session at the same time.
 */
export class ConversationTokenManager {
  readonly #options: ResolvedManagerOptions;
  readonly #lifecycle = new AbortController();
  readonly #flight = new SingleFlight<HeldToken>();
  #held: HeldToken | undefined;
  #usedSinceMint = false;
  #failures = 0;
  #nextAttemptAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ConversationTokenManagerOptions) {
    this.#options = resolveManagerOptions(options);
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
    return { token: held.token, expiresAt: new Date(held.expiresAt) };
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
    if (held && this.#options.now() < held.refreshAt) return this.#use(held);
    try {
      return this.#use(await abortable(this.#refresh(undefined), options.signal));
    } catch (error) {
      const fallback = this.#stillValid(held);
      if (!fallback || options.signal?.aborted || this.#lifecycle.signal.aborted) throw error;
      this.#options.logger?.warn?.('conversation token refresh failed; using the current token', {
        error: String(error),
        expiresInMs: fallback.expiresAt - this.#options.now(),
      });
      return this.#use(fallback);
    }
  }

  #use(held: HeldToken): HeldToken {
    this.#usedSinceMint = true;
    return held;
  }

  #stillValid(held: HeldToken | undefined): HeldToken | undefined {
    return held && held.expiresAt - this.#options.now() > MIN_FALLBACK_LIFE_MS ? held : undefined;
  }

  /** A new token in place of `refused`, unless another caller already replaced it. */
  async #replaceRefused(refused: string): Promise<HeldToken> {
    const held = this.#held;
    if (held && held.token !== refused && this.#options.now() < held.expiresAt) return held;
    if (held?.token === refused) this.#held = undefined;
    const fresh = await this.#refresh(refused);
    // A flight that started before the 401 may have re-read the refused token.
    return fresh.token === refused ? this.#refresh(refused) : fresh;
  }

  #refresh(refused: string | undefined): Promise<HeldToken> {
    return this.#flight.run(async () => {
      try {
        const held = await this.#readOrMint(refused);
        this.#failures = 0;
        this.#hold(held);
        return held;
      } catch (error) {
        throw this.#failure(error);
      }
    });
  }

  #readOrMint(refused: string | undefined): Promise<HeldToken> {
    return readThroughLocked({
      store: this.#options.store,
      key: this.#options.key,
      accept: (stored) => this.#acceptStored(stored, refused),
      create: async () => {
        const held = await this.#mintHeld();
        return {
          value: held,
          encoded: encodeStoredToken(held),
          ttlMs: held.expiresAt - this.#options.now(),
        };
      },
      beforeLock: () => this.#waitOutBackoff(),
      leaseMs: this.#options.mintTimeoutMs + 1_000,
      lockWaitMs: this.#options.lockWaitMs,
      signal: this.#lifecycle.signal,
    });
  }

  #acceptStored(stored: StoredValue, refused: string | undefined): HeldToken | undefined {
    const now = this.#options.now();
    const held = decodeStoredToken(stored.value, stored.ttlMs, now, this.#options.refreshMarginMs);
    return held && held.token !== refused && now < held.refreshAt ? held : undefined;
  }

  async #mintHeld(): Promise<HeldToken> {
    const sentAt = this.#options.now();
    const minted = await mintWithin(
      this.#options.mint,
      this.#options.mintTimeoutMs,
      this.#lifecycle.signal,
    );
    const held = holdMintedToken(minted, {
      sentAt,
      receivedAt: this.#options.now(),
      refreshMarginMs: this.#options.refreshMarginMs,
    });
    if ('problem' in held) throw new UnusableMintResult(held.problem);
    return held;
  }

  async #waitOutBackoff(): Promise<void> {
    const waitMs = this.#nextAttemptAt - this.#options.now();
    if (this.#failures > 0 && waitMs > 0) await sleep(waitMs, this.#lifecycle.signal);
  }

  #failure(error: unknown): unknown {
    if (this.#lifecycle.signal.aborted) return this.#lifecycle.signal.reason;
    this.#failures += 1;
    const delayMs = backoffDelayMs(this.#failures, this.#options.backoff, this.#options.random);
    this.#nextAttemptAt = this.#options.now() + delayMs;
    const what =
      error instanceof UnusableMintResult
        ? `the mint function returned an unusable result: ${error.message}`
        : describeError(error);
    return new TokenMintError(
      `Could not obtain a conversation token (attempt ${this.#failures}): ${what}. The next attempt waits ${delayMs} ms.`,
      { cause: error, attempt: this.#failures, retryAt: this.#nextAttemptAt },
    );
  }

  #hold(held: HeldToken): void {
    this.#held = held;
    this.#usedSinceMint = false;
    this.#cancelTimer();
    if (this.#options.refreshAhead) {
      this.#timer = unrefTimeout(
        () => this.#refreshInBackground(),
        held.refreshAt - this.#options.now(),
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

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
