import { ApiError, RateLimitError } from '../errors/api-errors.js';
import { ConnectionError } from '../errors/transport-errors.js';
import type { CatalogLogger } from '../logger.js';
import { parseRetryAfter } from './retry-after.js';

/**
 * How an operation may be repeated.
 * - `idempotent`: repeat after connection errors, 408, 429 and 5xx.
 * - `once`: not idempotent (a collection update with `add_clauses`, a conversation create):
 *   repeat only when the request provably never arrived (connection refused) or was
 *   refused before processing (429). Anything else may have been applied.
 */
export type RetryMode = 'idempotent' | 'once';

/** Limits on retrying. */
export interface RetryPolicy {
  /** Repeats after the first attempt. */
  maxRetries: number;
  /** Cap on the total time spent waiting between attempts. */
  maxRetryDelayMs: number;
  /** First backoff step; doubles per attempt, with full jitter. */
  baseDelayMs: number;
  /** Cap on a single backoff step (not on a server's Retry-After). */
  maxBackoffMs: number;
  /** Source of randomness for jitter, in [0, 1). */
  random: () => number;
}

/** Retry settings when the client options give none. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  maxRetryDelayMs: 20_000,
  baseDelayMs: 500,
  maxBackoffMs: 8_000,
  random: Math.random,
};

/** Whether `error` may be retried under `mode`. */
export function isRetryable(error: unknown, mode: RetryMode): boolean {
  if (error instanceof RateLimitError) return true;
  if (error instanceof ConnectionError) return mode === 'idempotent' || !error.requestSent;
  if (mode === 'once' || !(error instanceof ApiError)) return false;
  return error.status === 408 || error.status >= 500;
}

/** The wait the server asked for: a 429's parsed Retry-After, or a 503's header. */
function serverDelayMs(error: unknown): number | undefined {
  if (error instanceof RateLimitError) return error.retryAfterMs;
  if (error instanceof ApiError) return parseRetryAfter(error.headers['retry-after'])?.retryAfterMs;
  return undefined;
}

/** The wait before the next attempt: the server's Retry-After, else backoff with full jitter. */
export function retryDelayMs(error: unknown, attempt: number, policy: RetryPolicy): number {
  const asked = serverDelayMs(error);
  if (asked !== undefined) return asked;
  const ceiling = Math.min(policy.maxBackoffMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}

/** What deciding on a retry reads of its call's scope. */
interface RetryScope {
  readonly operation: string;
  /** Set once the call timed out or was aborted: nothing is retried then. */
  readonly failure: unknown;
  remainingMs(): number;
}

/** What deciding on a retry needs to know about its call. */
export interface RetryContext {
  policy: RetryPolicy;
  mode: RetryMode;
  logger: CatalogLogger | undefined;
}

function describeError(error: unknown): string {
  if (error instanceof ApiError) return `HTTP ${error.status}`;
  return error instanceof Error ? error.name : 'error';
}

/**
 * The wait before repeating a failed attempt, or undefined to give up: the error is not
 * retryable, `maxRetries` is used up, or the wait does not fit the total wait cap or the
 * call's remaining time (a Retry-After of hours surfaces the error at once instead of
 * sleeping). `waitedMs`: the time already spent waiting in this call.
 */
export function retryDelayFor(
  error: unknown,
  attemptNumber: number,
  waitedMs: number,
  context: RetryContext & { scope: RetryScope },
): number | undefined {
  const { policy, mode, scope, logger } = context;
  if (scope.failure || attemptNumber >= policy.maxRetries || !isRetryable(error, mode)) {
    return undefined;
  }
  const delayMs = retryDelayMs(error, attemptNumber, policy);
  const logContext = {
    operation: scope.operation,
    attempt: attemptNumber + 1,
    delayMs,
    reason: describeError(error),
  };
  if (waitedMs + delayMs > policy.maxRetryDelayMs || delayMs >= scope.remainingMs()) {
    logger?.info?.(`${scope.operation}: not retrying, the wait does not fit`, logContext);
    return undefined;
  }
  logger?.warn?.(
    `${scope.operation}: retrying after ${describeError(error)} in ${delayMs} ms`,
    logContext,
  );
  return delayMs;
}
