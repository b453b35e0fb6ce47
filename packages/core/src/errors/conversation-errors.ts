import { CatalogError } from './catalog-error.js';

/**
 * Minting a conversation token failed or returned something unusable (the message names the
 * field); the next `getToken()` tries again after a backoff. `cause`: the mint's own error.
 */
export class TokenMintError extends CatalogError {
  static override readonly kind: string = 'TokenMintError';
  /** Consecutive failed mints for this session, this one included. */
  readonly attempt: number;
  /** Earliest moment (local epoch ms) at which the next mint will be tried. */
  readonly retryAt: number;

  constructor(message: string, options: { cause?: unknown; attempt: number; retryAt: number }) {
    super('token_mint_failed', message, options);
    this.attempt = options.attempt;
    this.retryAt = options.retryAt;
  }
}

/** Another process held a session's lock (minting or creating) longer than `lockWaitMs`. */
export class SessionLockTimeoutError extends CatalogError {
  static override readonly kind: string = 'SessionLockTimeoutError';
  readonly key: string;

  constructor(key: string, waitedMs: number) {
    super('session_lock_timeout', `Could not lock session key "${key}" within ${waitedMs} ms`);
    this.key = key;
  }
}

/**
 * The shared store could not be reached, or answered wrongly or late. A call that needed it
 * failed before sending its change: retry once the store is back.
 */
export class StoreUnavailableError extends CatalogError {
  static override readonly kind: string = 'StoreUnavailableError';
  /** Which store failed, e.g. `redis (ioredis)`. */
  readonly store: string;

  constructor(store: string, message: string, options: { cause?: unknown } = {}) {
    super('store_unavailable', `${store}: ${message}`, options);
    this.store = store;
  }
}
