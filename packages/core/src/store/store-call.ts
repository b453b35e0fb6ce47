import { SessionLockTimeoutError, StoreUnavailableError } from '../errors/conversation-errors.js';
import type { CatalogStore } from './catalog-store.js';

/**
 * The longest one store operation may take before catalogkit gives up on it (and refuses to
 * send the change that needed it): a store that lost its server may otherwise queue the
 * command until it reconnects, long after the caller gave up.
 */
export const STORE_TIMEOUT_MS = 5_000;

/** The store's name for errors: its `name`, else its class name. */
export function storeName(store: CatalogStore): string {
  if (typeof store.name === 'string' && store.name.trim() !== '') return store.name;
  const className: unknown = (store as object).constructor?.name;
  return typeof className === 'string' && className !== '' && className !== 'Object'
    ? className
    : 'store';
}

/**
 * Runs one store operation within a time limit and maps its failure to a
 * StoreUnavailableError naming the store and `what` was being done (e.g. `claiming a
 * collection update`). The store's own error stays as `cause`; the message keeps only its
 * name, since a driver's message may carry connection details. `signal`: the caller gave up,
 * the call rejects with its reason (not a store failure).
 */
export function callStore<T>(
  store: CatalogStore,
  what: string,
  operation: () => Promise<T>,
  { timeoutMs = STORE_TIMEOUT_MS, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    const timer = setTimeout(() => {
      const message = `${what}: no answer within ${timeoutMs} ms`;
      finish(() => reject(new StoreUnavailableError(storeName(store), message)));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    let started: Promise<T>;
    try {
      started = operation();
    } catch (error) {
      started = Promise.reject(error);
    }
    // Settling twice is a no-op: whichever of answer, time limit and abort comes first wins.
    started.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(asStoreError(store, what, error))),
    );
  });
}

/**
 * A store's failure as a StoreUnavailableError, kept as is when it already is one or is a
 * SessionLockTimeoutError (a lock another instance held too long, not a failing store).
 */
export function asStoreError(store: CatalogStore, what: string, error: unknown): unknown {
  if (StoreUnavailableError.is(error) || SessionLockTimeoutError.is(error)) return error;
  const reason = `it failed (${error instanceof Error ? error.name : typeof error})`;
  return new StoreUnavailableError(storeName(store), `${what}: ${reason}`, { cause: error });
}
