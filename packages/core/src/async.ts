import { TimeoutError } from './errors/transport-errors.js';

/** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Lets one caller stop waiting for a promise shared with others: the promise itself keeps
 * running, only this caller's wait rejects with the signal's reason.
 */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    // Handled first: a promise still running when the signal has aborted must not reject unheard.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `task` with a signal that aborts after `timeoutMs` (a TimeoutError naming `what`) or
 * when `closeSignal` aborts. The task is also raced against that signal, so one that ignores
 * it still ends on time: work under a cross-instance lock never outlives the lock's lease.
 */
export async function runWithinTime<T>(
  task: (signal: AbortSignal) => Promise<T>,
  { timeoutMs, closeSignal, what }: { timeoutMs: number; closeSignal: AbortSignal; what: string },
): Promise<T> {
  closeSignal.throwIfAborted();
  const controller = new AbortController();
  const onClose = () => controller.abort(closeSignal.reason);
  closeSignal.addEventListener('abort', onClose, { once: true });
  const timer = setTimeout(() => controller.abort(new TimeoutError(timeoutMs, what)), timeoutMs);
  try {
    return await abortable(task(controller.signal), controller.signal);
  } finally {
    clearTimeout(timer);
    closeSignal.removeEventListener('abort', onClose);
  }
}

/** Runs at most one task at a time; callers arriving meanwhile share its promise. */
export class SingleFlight<T> {
  #inFlight: Promise<T> | undefined;

  run(task: () => Promise<T>): Promise<T> {
    this.#inFlight ??= task().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }
}
