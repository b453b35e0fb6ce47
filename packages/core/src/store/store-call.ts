import { abortable } from '../async.js';
import { SessionLockTimeoutError, StoreUnavailableError } from '../errors/conversation-errors.js';
import type { CatalogStore } from './catalog-store.js';

/**
 * The longest one store operation may take: a store that lost its server may queue the
 * command until it reconnects, long after the caller gave up.
 */
export const STORE_TIMEOUT_MS = 5_000;

export function storeName(store: CatalogStore): string {
  const className: unknown = (store as object).constructor?.name;
  if (typeof store.name === 'string' && store.name.trim()) return store.name;
  return typeof className === 'string' && className !== 'Object' && className ? className : 'store';
}

/**
 * Runs one store operation within a time limit; its failure becomes a StoreUnavailableError
 * naming the store and `what` was done, the driver's error as `cause` (its message may carry
 * connection details). An aborted `signal` rejects with its reason, not a store failure.
 */
export async function callStore<T>(
  store: CatalogStore,
  what: string,
  operation: () => Promise<T>,
  { timeoutMs = STORE_TIMEOUT_MS, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  signal?.throwIfAborted();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    const message = `${what}: no answer within ${timeoutMs} ms`;
    timer = setTimeout(
      () => reject(new StoreUnavailableError(storeName(store), message)),
      timeoutMs,
    );
  });
  const answer = new Promise<T>((resolve) => resolve(operation())).catch((error: unknown) => {
    // A SessionLockTimeoutError is a lock another instance held too long, not a failing store.
    if (StoreUnavailableError.is(error) || SessionLockTimeoutError.is(error)) throw error;
    const reason = `it failed (${error instanceof Error ? error.name : typeof error})`;
    throw new StoreUnavailableError(storeName(store), `${what}: ${reason}`, { cause: error });
  });
  try {
    return await abortable(Promise.race([answer, late]), signal);
  } finally {
    clearTimeout(timer);
  }
}
