import { sleep } from '../async.js';
import { type CatalogError, markOutcome } from '../errors/catalog-error.js';
import { AbortError, TimeoutError } from '../errors/transport-errors.js';
import { type CallObserver, type CatalogInstrumentation, observeCall } from '../instrumentation.js';
import { type RetryContext, retryDelayFor } from './retry.js';

/** Limits on what one answer may make the client hold, in bytes after decoding. */
export const DEFAULT_BODY_LIMITS = {
  /** The whole answer: JSON, event stream or error body (a 100-product answer is ~0.6 MiB). */
  maxResponseBytes: 10_485_760,
  /** One line of an event stream (a `data:` line holds a whole answer). */
  maxSseLineBytes: 4_194_304,
};

export type BodyLimits = typeof DEFAULT_BODY_LIMITS;

/**
 * The lifetime of one client call: the caller's signal and the timeout, merged into one
 * signal. The timeout covers every attempt and wait, so a call never outlives `timeoutMs`.
 */
export interface CallScope {
  readonly operation: string;
  /** Aborts with the call's TimeoutError or AbortError. */
  readonly signal: AbortSignal;
  readonly limits: BodyLimits;
  /** A change: no redirect is followed, and errors say whether it may have been applied. */
  readonly mutates: boolean;
  /** The TimeoutError or AbortError that ended the call, if one did. */
  failure: CatalogError | undefined;
  /**
   * Whether the latest request may have been acted on: set when it is handed to fetch,
   * cleared by a refused connection or a 4xx (never by a later redirect hop). It decides
   * `outcomeUnknown` on a failed change.
   */
  mayHaveArrived: boolean;
  /**
   * The token of the payment credential this call sent, once it paid: its answers may echo it.
   * A call pays at most once (`PaymentStep`), so there is at most one.
   */
  credential: string | undefined;
  /** The bearer token this call sends (a conversation token): a secret of all its answers. */
  bearer: string | undefined;
  /** What this call reports to the client's instrumentation; undefined without one. */
  observer: CallObserver | undefined;
  remainingMs(): number;
  /**
   * Waits for a fetch, or rejects with the call's failure once the call is stopped: a fetch
   * wrapper that drops the signal cannot outlive the call, nor hold the answer it gives later.
   */
  until(sent: Promise<Response>): Promise<Response>;
  /** Runs `stopped` once the call stops (at once if it has): a body reader cancels its stream. */
  onStop(stopped: () => void): void;
}

interface CallSettings {
  operation: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  limits?: BodyLimits;
  mutates?: boolean;
  /** A last look at the error that ends the call (e.g. why a 402 went unpaid). */
  onFailure?: (error: unknown) => void;
  /** The client's `instrumentation` option: told of attempts, waits and the end. */
  instrumentation?: CatalogInstrumentation | undefined;
}

/** Work around each attempt of a call: the rate-limit pause shared through the store. */
export interface AttemptHooks {
  /**
   * Runs before each attempt; gives the milliseconds it waited, or throws to end the attempt
   * unsent. A plain number when nothing was awaited: no extra turn of the event loop.
   */
  beforeAttempt(scope: CallScope, waitedMs: number): number | Promise<number>;
  /** Runs after each failed attempt, before deciding on a retry; never throws. */
  afterFailure(error: unknown, scope: CallScope): Promise<void>;
}

/** Runs one call: `attempt` in a fresh CallScope, repeated as `retry` allows. */
export async function runCall<T>(
  settings: CallSettings,
  retry: RetryContext,
  attempt: (scope: CallScope) => Promise<T>,
  hooks?: AttemptHooks,
): Promise<T> {
  const { operation, timeoutMs, signal, mutates = false, instrumentation } = settings;
  const controller = new AbortController();
  const deadline = performance.now() + timeoutMs;
  // What the current attempt's waits and bodies do when the call stops: plain functions, cheaper
  // than listeners on the signal. Cleared before a retry: a failed attempt's reads are over.
  const waits = new Set<(failure: CatalogError) => void>();
  const scope: CallScope = {
    operation,
    signal: controller.signal,
    limits: settings.limits ?? DEFAULT_BODY_LIMITS,
    mutates,
    failure: undefined,
    mayHaveArrived: false,
    credential: undefined,
    bearer: undefined,
    // Without an instrumentation every report below is one `undefined` check: no allocation.
    observer:
      instrumentation &&
      observeCall(instrumentation, operation, mutates, (error) =>
        retry.logger?.warn?.(`${operation}: the instrumentation threw; this call is not observed`, {
          error: error instanceof Error ? error.name : typeof error,
        }),
      ),
    remainingMs: () => Math.max(0, deadline - performance.now()),
    until: (sent) =>
      new Promise((resolve, reject) => {
        // Handled first: a fetch still running when the call stops must not reject unheard.
        const answered = (answer: Response) =>
          scope.failure ? void answer.body?.cancel().catch(() => undefined) : resolve(answer);
        sent.then(answered, reject).finally(() => waits.delete(reject));
        scope.onStop(reject);
      }),
    onStop: (stopped: (failure: CatalogError) => void) => {
      if (scope.failure) stopped(scope.failure);
      else waits.add(stopped);
    },
  };
  const { observer } = scope;
  const stop = (failure: CatalogError) => {
    scope.failure ??= failure;
    controller.abort(scope.failure);
    for (const reject of waits) reject(scope.failure);
  };
  // Clamped: a timer past 2^31-1 ms fires at once; 24.8 days is as good as no limit.
  const ms = Math.min(timeoutMs, 2 ** 31 - 1);
  const timer = setTimeout(() => stop(new TimeoutError(timeoutMs, operation)), ms);
  const onAbort = () => stop(new AbortError(operation, { cause: signal?.reason }));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let waitedMs = 0;
  // Attempts actually sent: a pause that ends the call before sending starts none.
  let attempts = 0;
  try {
    for (let attemptNumber = 0; ; attemptNumber++) {
      try {
        const waited = hooks?.beforeAttempt(scope, waitedMs) ?? 0;
        const pausedMs = typeof waited === 'number' ? waited : await waited;
        if (pausedMs > 0) observer?.wait('rateLimitPause', pausedMs);
        waitedMs += pausedMs;
        observer?.attemptStart(++attempts);
        const result = await attempt(scope);
        observer?.attemptEnd(attempts, undefined);
        observer?.end(undefined, attempts);
        return result;
      } catch (error) {
        if (attempts === attemptNumber + 1) observer?.attemptEnd(attempts, error);
        await hooks?.afterFailure(error, scope);
        const delayMs = scope.failure
          ? undefined
          : retryDelayFor(error, attemptNumber, waitedMs, scope.remainingMs(), operation, retry);
        if (delayMs === undefined) throw error;
        waits.clear();
        observer?.wait('retry', delayMs);
        await sleep(delayMs, scope.signal);
        waitedMs += delayMs;
      }
    }
  } catch (caught) {
    // Whatever fetch or a body read threw after an abort, report why it was aborted.
    const error = scope.failure ?? caught;
    if (mutates) markOutcome(error, scope.mayHaveArrived);
    settings.onFailure?.(error);
    observer?.end(error, attempts);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
