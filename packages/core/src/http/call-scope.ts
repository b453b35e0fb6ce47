import { monotonicMs, sleep } from '../async.js';
import { type CatalogError, markOutcome } from '../errors/catalog-error.js';
import { AbortError, TimeoutError } from '../errors/transport-errors.js';
import { type CallObserver, type CatalogInstrumentation, observeCall } from '../instrumentation.js';
import { type RetryContext, retryDelayFor } from './retry.js';

/** Size limits on what one answer may make the client hold, in bytes after decoding. */
export interface BodyLimits {
  /** The whole answer: JSON, event stream or error body. */
  maxResponseBytes: number;
  /** One line of an event stream (a `data:` line holds a whole answer). */
  maxSseLineBytes: number;
}

/** 10 MiB per answer; 4 MiB per event-stream line (a 100-product answer is about 0.6 MiB). */
export const DEFAULT_BODY_LIMITS: BodyLimits = {
  maxResponseBytes: 10_485_760,
  maxSseLineBytes: 4_194_304,
};

/**
 * The lifetime of one client call: the caller's signal and the timeout, merged into one
 * signal. The timeout covers every attempt and wait, so a call never outlives `timeoutMs`.
 */
export class CallScope {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #deadline: number;
  readonly #detach: (() => void) | undefined;
  #failure: CatalogError | undefined;
  /**
   * Whether the latest request may have been acted on: set when it is handed to fetch,
   * cleared by a refused connection or a 4xx (never by a later redirect hop). It decides
   * `outcomeUnknown` on a failed change.
   */
  mayHaveArrived = false;
  /** The token of the payment credential this call sent, once it paid: its answer may echo it. */
  credential: string | undefined = undefined;
  /** What this call reports to the client's instrumentation; undefined without one. */
  observer: CallObserver | undefined = undefined;

  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    callerSignal?: AbortSignal,
    readonly limits: BodyLimits = DEFAULT_BODY_LIMITS,
    /** A change: no redirect is followed, and errors say whether it may have been applied. */
    readonly mutates = false,
  ) {
    this.#deadline = monotonicMs() + timeoutMs;
    this.#timer = setTimeout(() => this.#stop(new TimeoutError(timeoutMs, operation)), timeoutMs);
    this.#detach = callerSignal ? this.#follow(callerSignal) : undefined;
  }

  #follow(callerSignal: AbortSignal): () => void {
    const onAbort = () =>
      this.#stop(new AbortError(this.operation, { cause: callerSignal.reason }));
    if (callerSignal.aborted) onAbort();
    else callerSignal.addEventListener('abort', onAbort, { once: true });
    return () => callerSignal.removeEventListener('abort', onAbort);
  }

  remainingMs(): number {
    return Math.max(0, this.#deadline - monotonicMs());
  }

  /** The TimeoutError or AbortError that ended the call, if one did. */
  get failure(): CatalogError | undefined {
    return this.#failure;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#detach?.();
  }

  /** Waits `ms`, ending early with the scope's TimeoutError/AbortError. */
  sleep(ms: number): Promise<void> {
    return sleep(ms, this.signal);
  }

  #stop(failure: CatalogError): void {
    if (this.#failure) return;
    this.#failure = failure;
    this.#controller.abort(failure);
  }
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
  const { operation, timeoutMs, signal, limits, mutates, onFailure, instrumentation } = settings;
  const scope = new CallScope(operation, timeoutMs, signal, limits, mutates === true);
  // Without an instrumentation every report below is one `undefined` check: no allocation.
  const observer =
    instrumentation &&
    observeCall(instrumentation, operation, mutates === true, (error) =>
      retry.logger?.warn?.(`${operation}: the instrumentation threw; this call is not observed`, {
        error: error instanceof Error ? error.name : typeof error,
      }),
    );
  scope.observer = observer;
  let waitedMs = 0;
  // Attempts actually sent: a pause that ends the call before sending starts none.
  let attempts = 0;
  try {
    for (let attemptNumber = 0; ; attemptNumber++) {
      try {
        const waited = hooks?.beforeAttempt(scope, waitedMs) ?? 0;
        if (typeof waited === 'number') waitedMs += waited;
        else {
          const pausedMs = await waited;
          waitedMs += pausedMs;
          if (pausedMs > 0) observer?.wait('rateLimitPause', pausedMs);
        }
        attempts = attemptNumber + 1;
        observer?.attemptStart(attempts);
        const result = await attempt(scope);
        if (observer) {
          observer.attemptEnd(attempts, undefined);
          observer.end(undefined, attempts);
        }
        return result;
      } catch (error) {
        if (attempts === attemptNumber + 1) observer?.attemptEnd(attempts, error);
        await hooks?.afterFailure(error, scope);
        const delayMs = retryDelayFor(error, attemptNumber, waitedMs, { ...retry, scope });
        if (delayMs === undefined) throw error;
        observer?.wait('retry', delayMs);
        await scope.sleep(delayMs);
        waitedMs += delayMs;
      }
    }
  } catch (caught) {
    // Whatever fetch or a body read threw after an abort, report why it was aborted.
    const error = scope.failure ?? caught;
    if (mutates) markOutcome(error, scope.mayHaveArrived);
    onFailure?.(error);
    observer?.end(error, attempts);
    throw error;
  } finally {
    scope.dispose();
  }
}
