import { sleep } from '../async.js';
import type { CatalogError } from '../errors/catalog-error.js';
import { AbortError, TimeoutError } from '../errors/transport-errors.js';

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

  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    callerSignal?: AbortSignal,
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

/** Runs `work` inside a fresh CallScope, always releasing it. */
export async function withCallScope<T>(
  operation: string,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  work: (scope: CallScope) => Promise<T>,
): Promise<T> {
  const scope = new CallScope(operation, timeoutMs, callerSignal);
  try {
    return await work(scope);
  } catch (error) {
    // Whatever fetch or a body read threw after an abort, report why it was aborted.
    throw scope.failure ?? error;
  } finally {
    scope.dispose();
  }
}
