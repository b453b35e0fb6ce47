/** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Lets one caller stop waiting for a promise shared with others: the promise itself keeps
 * running, only this caller's wait rejects with the signal's reason.
 */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** `setTimeout` that does not keep a Node process alive (browsers have no `unref`). */
export function unrefTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  // Timers longer than 2^31-1 ms fire at once in Node and browsers.
  const handle = setTimeout(callback, Math.min(Math.max(0, ms), 2_147_483_647));
  const maybeNode = handle as unknown as { unref?: () => void };
  maybeNode.unref?.();
  return handle;
}
