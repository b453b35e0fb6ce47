/*
 * Waiting, bounded: a command by its time limit and the caller's signal; a lock's poll by its
 * pause and the signal.
 */

/**
 * Runs `run` until it settles, `timeoutMs` passes (then rejects with `onTimeout()`) or
 * `signal` aborts (then rejects with its reason); in both cases the signal given to `run`
 * aborts, so a client that can stop the command does.
 * @internal
 */
export function bounded<T>(
  run: (limit: AbortSignal) => Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const controller = new AbortController();
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => {
      controller.abort();
      finish(() => reject(signal?.reason));
    };
    const timer = setTimeout(() => {
      controller.abort();
      finish(() => reject(onTimeout()));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    let answer: Promise<T>;
    try {
      answer = run(controller.signal);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/**
 * Waits `ms` (with ±50 % jitter so waiting instances do not poll in lockstep).
 * @internal
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      ms * (0.5 + Math.random()),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
