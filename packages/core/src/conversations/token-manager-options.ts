import { monotonicMs } from '../async.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import type { CatalogLogger } from '../logger.js';
import type { CatalogStore } from '../store/catalog-store.js';
import { MemoryCatalogStore } from '../store/memory-store.js';
import type { BackoffOptions } from './backoff.js';

/** Options of {@link ConversationTokenManager}. */
export interface ConversationTokenManagerOptions {
  /** Mints one token (see {@link TokenMinter}); called once per token lifetime. */
  mint: TokenMinter;
  /**
   * Store key of this chat session's token, e.g. `chat:${chatId}:token`. Required with
   * `store`; without one the private default store uses `conversation-token`.
   */
  key?: string;
  /** Where the token is kept; default a private {@link MemoryCatalogStore}. */
  store?: CatalogStore;
  /**
   * Refresh when the token has less than this left (default 60,000 ms), capped at half the
   * token's life so short tokens are not minted per message.
   */
  refreshMarginMs?: number;
  /**
   * A mint that takes longer is aborted and counts as failed (default 15,000 ms). It also
   * bounds the store's lock: its lease is `mintTimeoutMs` + 1 s, so the lock cannot expire
   * while its holder mints and a second instance never mints for the session meanwhile.
   * (A process that stalls past the lease, e.g. a frozen serverless instance, loses the lock;
   * the worst outcome is then one extra token, never a broken session.)
   */
  mintTimeoutMs?: number;
  /** How long to wait for another instance that is minting (default mintTimeoutMs + 5,000). */
  lockWaitMs?: number;
  /** Backoff after failed mints (default 1 s doubling to 30 s, with jitter). */
  backoff?: BackoffOptions;
  /**
   * Refresh in the background when the refresh moment comes, so no shopper message waits
   * for a mint. Only tokens that were used since they were minted are refreshed: an idle
   * chat mints nothing. The timer never keeps a Node process alive. Default false.
   */
  refreshAhead?: boolean;
  /**
   * The local wall clock in epoch ms (default `Date.now`). It only reads the service's
   * instants (`expiresAt` without `serverDate`) and dates `getTokenInfo().expiresAt`; the
   * life of a held token is measured on `monotonicNow`. Given alone (a fake clock in tests),
   * it drives both.
   */
  now?: () => number;
  /**
   * A monotonic clock in ms (default `performance.now`; only differences count) that
   * measures a held token's remaining life, the backoff and the default store's TTLs, so a
   * wall clock stepped by NTP or by hand neither rejects a fresh token nor keeps handing out
   * an expired one. Defaults to `now` when only `now` is given.
   */
  monotonicNow?: () => number;
  /** Random source for the backoff jitter (default `Math.random`). */
  random?: () => number;
  /** Receives refresh failures of the background timer and fallbacks. */
  logger?: CatalogLogger;
}

/** Options with every default applied. */
export interface ResolvedManagerOptions {
  mint: TokenMinter;
  store: CatalogStore;
  key: string;
  refreshMarginMs: number;
  mintTimeoutMs: number;
  lockWaitMs: number;
  backoff: BackoffOptions;
  refreshAhead: boolean;
  /** The wall clock (epoch ms): reads the service's instants. */
  now: () => number;
  /** The monotonic clock: measures held tokens, backoffs and the default store's TTLs. */
  monotonicNow: () => number;
  random: () => number;
  logger: CatalogLogger | undefined;
}

/** Applies the defaults; a bad option is a ConfigurationError naming it. */
export function resolveManagerOptions(
  options: ConversationTokenManagerOptions,
): ResolvedManagerOptions {
  if (typeof options?.mint !== 'function') {
    throw new ConfigurationError('ConversationTokenManager: option mint must be a function');
  }
  for (const name of ['now', 'monotonicNow', 'random'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new ConfigurationError(`ConversationTokenManager: option ${name} must be a function`);
    }
  }
  if (options.store && !options.key?.trim()) {
    // With a shared store, a default key would hand one chat's token to every other chat.
    throw new ConfigurationError('ConversationTokenManager: option key is required with a store');
  }
  const now = options.now ?? Date.now;
  const monotonicNow = options.monotonicNow ?? options.now ?? monotonicMs;
  const mintTimeoutMs = nonNegative(options.mintTimeoutMs, 15_000, 'mintTimeoutMs');
  return {
    mint: options.mint,
    now,
    monotonicNow,
    store: options.store ?? new MemoryCatalogStore({ now: monotonicNow }),
    key: options.key ?? 'conversation-token',
    refreshMarginMs: nonNegative(options.refreshMarginMs, 60_000, 'refreshMarginMs'),
    mintTimeoutMs,
    lockWaitMs: nonNegative(options.lockWaitMs, mintTimeoutMs + 5_000, 'lockWaitMs'),
    backoff: options.backoff ?? {},
    refreshAhead: options.refreshAhead ?? false,
    random: options.random ?? Math.random,
    logger: options.logger,
  };
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new ConfigurationError(
      `ConversationTokenManager: option ${name} must be a non-negative number`,
    );
  }
  return value;
}

/**
 * A moment as an application may give it: a `Date`, an ISO 8601 / HTTP-date string, or
 * epoch milliseconds.
 */
export type InstantInput = Date | string | number;

/** What a mint function returns: one freshly minted conversation token. */
export interface MintedToken {
  /** The bearer token for the conversation's turns. */
  token: string;
  /** When the token stops working, on the server's clock. */
  expiresAt: InstantInput;
  /**
   * The server's own time when it answered (usually the `Date` response header). When
   * given, the token's remaining life is computed on the server's clock, so a local
   * clock that is minutes off still refreshes in time.
   */
  serverDate?: InstantInput;
  /**
   * The life the token was asked for, in seconds. The token is never held longer than
   * this from the moment the mint started, whatever the clocks say: a local clock minutes
   * behind, with no `serverDate` (browsers hide `Date` from cross-origin reads), would
   * otherwise stretch the token past its real end.
   */
  ttlSeconds?: number;
}

/** Context handed to a mint function. */
export interface MintContext {
  /** Aborted when the mint times out or the token manager is closed. */
  signal: AbortSignal;
}

/**
 * Mints one conversation token. Supplied by the application, because the contract does
 * not show how tokens are minted: on a server, call the service with the API key (see
 * `createHttpTokenMinter`); in a browser, call your own backend.
 */
export type TokenMinter = (context: MintContext) => Promise<MintedToken>;

/** Per-call options. */
export interface CallOptions {
  /** Cancels this caller's wait; a mint shared with other callers keeps going. */
  signal?: AbortSignal;
}
