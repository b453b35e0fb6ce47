import { CatalogError, type CatalogErrorOptions } from './catalog-error.js';

/**
 * Minting a conversation token failed, or the mint function returned something unusable
 * (the message names the field). Nothing is cached: the next `getToken()` tries again
 * after a backoff. `cause` holds the mint function's own error.
 */
export class TokenMintError extends CatalogError {
  static override readonly kind: string = 'TokenMintError';
  /** Consecutive failed mints for this session, this one included. */
  readonly attempt: number;
  /** Earliest moment (local epoch ms) at which the next mint will be tried. */
  readonly retryAt: number;

  constructor(
    message: string,
    options: CatalogErrorOptions & { attempt: number; retryAt: number },
  ) {
    super('token_mint_failed', message, options);
    this.attempt = options.attempt;
    this.retryAt = options.retryAt;
  }
}

/**
 * Another process held a session's lock (it was minting a token or creating the
 * conversation) for longer than `lockWaitMs`.
 */
export class SessionLockTimeoutError extends CatalogError {
  static override readonly kind: string = 'SessionLockTimeoutError';
  /** The store key whose lock could not be taken. */
  readonly key: string;

  constructor(key: string, waitedMs: number) {
    super('session_lock_timeout', `Could not lock session key "${key}" within ${waitedMs} ms`);
    this.key = key;
  }
}

/**
 * The shared store (a `CatalogStore` such as Redis) could not be reached, answered wrongly or
 * too late. Nothing was decided on its behalf: a call that needed it failed before sending
 * its change, so it is safe to retry once the store is back. `store` names the store. (A
 * collection update's write-ahead record whose write timed out may still land: it is
 * looked for and cleared if it does.)
 */
export class StoreUnavailableError extends CatalogError {
  static override readonly kind: string = 'StoreUnavailableError';
  /** Which store failed, e.g. `redis (ioredis)`. */
  readonly store: string;

  constructor(store: string, message: string, options: CatalogErrorOptions = {}) {
    super('store_unavailable', `${store}: ${message}`, options);
    this.store = store;
  }
}
