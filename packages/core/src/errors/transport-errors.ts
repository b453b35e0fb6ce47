import { CatalogError, type CatalogErrorOptions } from './catalog-error.js';

/**
 * The HTTP exchange failed below the HTTP level (DNS, refused, reset). `requestSent`
 * is `false` only when the request provably never left (connection refused or host
 * not found); otherwise the service may have processed it.
 */
export class ConnectionError extends CatalogError {
  /** `false` when the request provably never reached the service. */
  readonly requestSent: boolean;

  constructor(message: string, options: CatalogErrorOptions & { requestSent: boolean }) {
    super('connection', message, options);
    this.requestSent = options.requestSent;
  }
}

/** The call took longer than its `timeoutMs`. */
export class TimeoutError extends CatalogError {
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number, operation: string) {
    super('timeout', `${operation} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` cancelled the call. */
export class AbortError extends CatalogError {
  constructor(operation: string, options: CatalogErrorOptions = {}) {
    super('aborted', `${operation} was aborted`, options);
  }
}

/**
 * The service answered something that breaks the contract: an HTML page from a proxy,
 * truncated JSON, a JSON-RPC answer with the wrong id, a cross-origin redirect.
 */
export class ProtocolError extends CatalogError {
  /** HTTP status of the offending answer, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: CatalogErrorOptions & { status?: number } = {}) {
    super('protocol', message, options);
    this.status = options.status;
  }
}
