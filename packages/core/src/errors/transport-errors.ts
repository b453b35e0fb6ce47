import { CatalogError, type CatalogErrorOptions } from './catalog-error.js';

/**
 * The HTTP exchange failed below the HTTP level (DNS, refused, reset). `requestSent`
 * is `false` only when the request provably never left (connection refused or host
 * not found); otherwise the service may have processed it.
 */
export class ConnectionError extends CatalogError {
  static override readonly kind: string = 'ConnectionError';
  /** `false` when the request provably never reached the service. */
  readonly requestSent: boolean;

  constructor(message: string, options: CatalogErrorOptions & { requestSent: boolean }) {
    super('connection', message, options);
    this.requestSent = options.requestSent;
  }
}

/** The call took longer than its `timeoutMs`. */
export class TimeoutError extends CatalogError {
  static override readonly kind: string = 'TimeoutError';
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;
  /** Set when the call ended while the `payment.pay` hook had not answered: nothing was paid. */
  duringPayment = false;

  constructor(timeoutMs: number, operation: string) {
    super('timeout', `${operation} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller's `AbortSignal` cancelled the call. */
export class AbortError extends CatalogError {
  static override readonly kind: string = 'AbortError';
  constructor(operation: string, options: CatalogErrorOptions = {}) {
    super('aborted', `${operation} was aborted`, options);
  }
}

/**
 * The service answered something that breaks the contract: an HTML page from a proxy,
 * truncated JSON, a JSON-RPC answer with the wrong id, a cross-origin redirect.
 */
export class ProtocolError extends CatalogError {
  static override readonly kind: string = 'ProtocolError';
  /** HTTP status of the offending answer, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: CatalogErrorOptions & { status?: number } = {}) {
    super('protocol', message, options);
    this.status = options.status;
  }
}

/**
 * An answer (JSON, event stream or error body) grew past the client's size limit while it
 * streamed in; the request was aborted. The message names the limit, never the body.
 */
export class ResponseTooLargeError extends ProtocolError {
  static override readonly kind: string = 'ResponseTooLargeError';
  /** The limit that was exceeded, in bytes after decoding. */
  readonly limitBytes: number;
  /** Which limit: the whole answer, or one line of an event stream. */
  readonly limit: 'maxResponseBytes' | 'maxSseLineBytes';

  constructor(
    operation: string,
    limit: 'maxResponseBytes' | 'maxSseLineBytes',
    limitBytes: number,
    options: { status?: number } = {},
  ) {
    const what = limit === 'maxResponseBytes' ? 'the answer' : 'a line of the event stream';
    super(
      `${operation}: ${what} exceeded ${limitBytes} bytes (option ${limit}); the request was aborted`,
      { status: options.status },
    );
    this.limitBytes = limitBytes;
    this.limit = limit;
  }
}
