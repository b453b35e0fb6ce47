import { sleep } from '../async.js';
import { type CatalogError, markOutcome } from '../errors/catalog-error.js';
import { AbortError, TimeoutError } from '../errors/transport-errors.js';

/** Size limits on what one answer may make the client hold, in bytes after decoding. */
export interface BodyLimits {
  /** The whole answer: JSON, event stream or error body. */
  maxResponseBytes: number;
  /**
   * One line of an event stream (an SSE `data:` line holds a whole JSON-RPC answer), in
   * decoded characters.
   */
  maxSseLineBytes: number;
}

/** 10 MiB per answer; 4 MiB per event-stream line (a 100-product answer is about 0.1 MiB). */
export const DEFAULT_BODY_LIMITS: BodyLimits = {
  maxResponseBytes: 10 * 1024 * 1024,
  maxSseLineBytes: 4 * 1024 * 1024,
};

/**
 * The lifetime of one client call: the caller's AbortSignal plus the call's timeout,
 * merged into one signal for fetch, body reads and retry waits. The timeout covers the
 * whole call (every attempt and every wait), so a call never outlives `timeoutMs`.
 */
export class CallScope {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #deadline: number;
  readonly #detach: () => void;
  #failure: CatalogError | undefined;
  /**
   * Whether the latest attempt's request may have reached the service and been acted on:
   * set when a request is handed to fetch, cleared by a refused connection or a 4xx
   * refusal. It decides `outcomeUnknown` on a failed data-changing call.
   */
  mayHaveArrived = false;

  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    callerSignal?: AbortSignal,
    readonly limits: BodyLimits = DEFAULT_BODY_LIMITS,
  ) {
    this.#deadline = Date.now() + timeoutMs;
    this.#timer = setTimeout(() => this.#stop(new TimeoutError(timeoutMs, operation)), timeoutMs);
    const onAbort = () => this.#stop(new AbortError(operation, { cause: callerSignal?.reason }));
    callerSignal?.addEventListener('abort', onAbort, { once: true });
    this.#detach = () => callerSignal?.removeEventListener('abort', onAbort);
    if (callerSignal?.aborted) onAbort();
  }

  /** The merged signal, for fetch and body reads. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Milliseconds left before the timeout. */
  remainingMs(): number {
    return Math.max(0, this.#deadline - Date.now());
  }

  /** The TimeoutError or AbortError that ended the call, if one did. */
  get failure(): CatalogError | undefined {
    return this.#failure;
  }

  /** Releases the timer and the listener on the caller's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#detach();
  }

  /** Waits `ms`, ending early with the scope's TimeoutError/AbortError. */
  sleep(ms: number): Promise<void> {
    // The merged signal is aborted with the failure as its reason, so the wait rejects with it.
    return sleep(ms, this.signal);
  }

  #stop(failure: CatalogError): void {
    if (this.#failure) return;
    this.#failure = failure;
    this.#controller.abort(failure);
  }
}

/** How one call runs: its name, time limit, the caller's signal and the body limits. */
export interface CallSettings {
  operation: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  limits?: BodyLimits;
  /** A call that changes data: its errors say whether the change may have been applied. */
  mutates?: boolean;
}

/** Runs `work` inside a fresh CallScope, always releasing it. */
export async function withCallScope<T>(
  settings: CallSettings,
  work: (scope: CallScope) => Promise<T>,
): Promise<T> {
  const { operation, timeoutMs, signal, limits, mutates } = settings;
  const scope = new CallScope(operation, timeoutMs, signal, limits);
  try {
    return await work(scope);
  } catch (caught) {
    // Whatever fetch or a body read threw after an abort, report why it was aborted.
    const error = scope.failure ?? caught;
    if (mutates) markOutcome(error, scope.mayHaveArrived);
    throw error;
  } finally {
    scope.dispose();
  }
}
