import { ApiError, RateLimitError } from '../errors/api-errors.js';
import { ConnectionError } from '../errors/transport-errors.js';
import type { CatalogLogger } from '../logger.js';

/**
 * How an operation may be repeated: `idempotent` after connection errors, 408, 429 and 5xx;
 * `once` (a change) only when it provably never arrived (connection refused) or was refused
 * before processing (429), since anything else may have been applied.
 */
export type RetryMode = 'idempotent' | 'once';

/** Retry settings when the client options give none (they set the first two). */
export const DEFAULT_RETRY_POLICY = {
  maxRetries: 2,
  /** Cap on the total time spent waiting between attempts. */
  maxRetryDelayMs: 20_000,
  /** First backoff step; doubles per attempt, with full jitter from `random`. */
  baseDelayMs: 500,
  /** Cap on a single backoff step (not on a server's Retry-After). */
  maxBackoffMs: 8_000,
  random: Math.random,
};

export type RetryPolicy = typeof DEFAULT_RETRY_POLICY;

/**
 * Rate limits reset on UTC days, so a wait past a week is a broken value (20 digits,
 * `1e300`); clamping keeps `resetsAt` a valid Date, not one that throws when formatted.
 */
const MAX_RETRY_AFTER_MS = 604_800_000;

function waitOf(ms: number, now: number) {
  const retryAfterMs = Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
  return { retryAfterMs, resetsAt: new Date(now + retryAfterMs) };
}

/** A wait given in seconds (JSON-RPC `data.retry_after`), clamped like the header. */
export function retryAfterFromSeconds(seconds: number, now = Date.now()) {
  return Number.isFinite(seconds) && seconds >= 0 ? waitOf(seconds * 1000, now) : undefined;
}

/** Parses `Retry-After` (seconds or an HTTP-date): a past date is 0 ms, past a week a week. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()) {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return waitOf(Number(value) * 1000, now);
  // Every HTTP-date form starts with a day name: Date.parse would read "-5" or "2030" too.
  const moment = /^\s*[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(moment) ? undefined : waitOf(moment - now, now);
}

export function isRetryable(error: unknown, mode: RetryMode): boolean {
  if (error instanceof RateLimitError) return true;
  if (error instanceof ConnectionError) return mode === 'idempotent' || !error.requestSent;
  if (mode === 'once' || !(error instanceof ApiError)) return false;
  return error.status === 408 || error.status >= 500;
}

/** The wait before the next attempt: the server's Retry-After, else backoff with full jitter. */
export function retryDelayMs(error: unknown, attempt: number, policy: RetryPolicy): number {
  const asked =
    error instanceof RateLimitError
      ? error.retryAfterMs
      : error instanceof ApiError
        ? parseRetryAfter(error.headers['retry-after'])?.retryAfterMs
        : undefined;
  if (asked !== undefined) return asked;
  return Math.floor(
    policy.random() * Math.min(policy.maxBackoffMs, policy.baseDelayMs * 2 ** attempt),
  );
}

export interface RetryContext {
  policy: RetryPolicy;
  mode: RetryMode;
  logger: CatalogLogger | undefined;
}

/**
 * The wait before repeating a failed attempt, or undefined to give up: not retryable, out of
 * retries, or a wait past the wait cap or the call's time (an error beats hours of sleep).
 */
export function retryDelayFor(
  error: unknown,
  attemptNumber: number,
  waitedMs: number,
  remainingMs: number,
  operation: string,
  { policy, mode, logger }: RetryContext,
): number | undefined {
  if (attemptNumber >= policy.maxRetries || !isRetryable(error, mode)) return undefined;
  const delayMs = retryDelayMs(error, attemptNumber, policy);
  const reason = error instanceof ApiError ? `HTTP ${error.status}` : (error as Error).name;
  const log = { operation, attempt: attemptNumber + 1, delayMs, reason };
  if (waitedMs + delayMs > policy.maxRetryDelayMs || delayMs >= remainingMs) {
    logger?.info?.(`${operation}: not retrying, the wait does not fit`, log);
    return undefined;
  }
  logger?.warn?.(`${operation}: retrying after ${reason} in ${delayMs} ms`, log);
  return delayMs;
}
