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

  /**
   * `cause` is kept only as a {@link PlainCause} copy: a fetch error may hold the raw answer
   * (undici's `HTTPParserError.data`, an echoed key included), which no redactor sees.
   * `redact` clears the copied messages; without it they are left out.
   */
  constructor(
    message: string,
    options: CatalogErrorOptions & { requestSent: boolean; redact?: (text: string) => string },
  ) {
    super('connection', message, { cause: plainCause(options.cause, options.redact) });
    this.requestSent = options.requestSent;
  }
}

/** What a {@link ConnectionError} keeps of the error under it, at each level of its chain. */
export interface PlainCause {
  name: string;
  code?: string;
  message?: string;
  cause?: PlainCause;
}

/** A plain copy of `error`'s chain (3 levels): its name, string `code` and redacted message. */
function plainCause(
  error: unknown,
  redact: ((text: string) => string) | undefined,
  depth = 0,
): PlainCause | undefined {
  if (!(error instanceof Error) || depth > 2) return undefined;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  const copy: PlainCause = { name: error.name };
  if (typeof code === 'string') copy.code = code;
  if (redact) copy.message = redact(error.message);
  const under = plainCause(cause, redact, depth + 1);
  if (under) copy.cause = under;
  return copy;
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
