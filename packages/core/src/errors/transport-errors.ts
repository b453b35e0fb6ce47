import { CatalogError } from './catalog-error.js';

/** The exchange failed below HTTP (DNS, refused, reset). */
export class ConnectionError extends CatalogError {
  static override readonly kind: string = 'ConnectionError';
  /** `false` only when the request provably never left (refused, host not found). */
  readonly requestSent: boolean;

  /** `cause` is kept as a redacted {@link PlainCause}: a fetch error may hold the raw answer. */
  constructor(
    message: string,
    options: { cause?: unknown; requestSent: boolean; redact?: (text: string) => string },
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

/** A plain copy of `error`'s chain, 3 levels deep. */
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
  constructor(operation: string, options: { cause?: unknown } = {}) {
    super('aborted', `${operation} was aborted`, options);
  }
}

/** An answer that breaks the contract: a proxy's HTML, cut JSON, a wrong JSON-RPC id. */
export class ProtocolError extends CatalogError {
  static override readonly kind: string = 'ProtocolError';
  /** HTTP status of the offending answer, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: { cause?: unknown; status?: number } = {}) {
    super('protocol', message, options);
    this.status = options.status;
  }
}

type BodyLimit = 'maxResponseBytes' | 'maxSseLineBytes';

/** An answer grew past the client's size limit and was aborted; names the limit, not the body. */
export class ResponseTooLargeError extends ProtocolError {
  static override readonly kind: string = 'ResponseTooLargeError';
  /** In bytes after decoding. */
  readonly limitBytes: number;
  readonly limit: BodyLimit;

  constructor(operation: string, limit: BodyLimit, limitBytes: number, status?: number) {
    const what = limit === 'maxResponseBytes' ? 'the answer' : 'a line of the event stream';
    super(
      `${operation}: ${what} exceeded ${limitBytes} bytes (option ${limit}); the request was aborted`,
      { status },
    );
    this.limitBytes = limitBytes;
    this.limit = limit;
  }
}
