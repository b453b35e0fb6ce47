import type { ValidationIssue } from '../schemas/common.js';
import { CatalogError } from './catalog-error.js';

/** The parsed `detail` of an ErrorResponse: a string, or (422) an array of objects. */
export type ErrorDetail = string | Record<string, unknown>[] | undefined;

/** What every HTTP error answer carries; the message is already free of secrets. */
export type ApiErrorInit = Pick<ApiError, 'status' | 'detail' | 'headers' | 'message'> & {
  cause?: unknown;
};

/** The service answered with an HTTP error status. */
export class ApiError extends CatalogError {
  static override readonly kind: string = 'ApiError';
  readonly status: number;
  /** Parsed `detail` of the error body, if the body was an ErrorResponse. */
  readonly detail: ErrorDetail;
  /** Lower-cased names. */
  readonly headers: Record<string, string>;

  constructor(init: ApiErrorInit, code = 'api_error') {
    super(code, init.message, { cause: init.cause });
    this.status = init.status;
    this.detail = init.detail;
    this.headers = init.headers;
  }
}

/** 401: the API key is missing or invalid. */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = 'AuthenticationError';
  readonly reason: 'missing' | 'invalid';

  constructor(init: ApiErrorInit & { reason: 'missing' | 'invalid' }) {
    super(init, 'authentication');
    this.reason = init.reason;
  }
}

/** One parsed challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** Scheme as sent (compare case-insensitively), e.g. `Payment`. */
  scheme: string;
  /** Auth parameters; names lower-cased, values unquoted and unescaped. */
  params: Record<string, string>;
  /** The token68 form (`Scheme abc==`), when used instead of parameters. */
  token68?: string;
  /**
   * Parameter names given more than once, lower-cased (RFC 9110 §11.2: each at most once).
   * Such a challenge is ambiguous (two `amount`s) and is never paid; `params` holds the first.
   */
  repeated?: string[];
}

/** 402: free credits used up (add a payment method), or a machine-payment `challenges`. */
export class PaymentRequiredError extends ApiError {
  static override readonly kind: string = 'PaymentRequiredError';
  readonly reason: 'credits_exhausted' | 'payment_challenge';
  /** Parsed `WWW-Authenticate` challenges; empty when credits are exhausted. */
  readonly challenges: AuthChallenge[];

  constructor(init: ApiErrorInit & { challenges: AuthChallenge[] }) {
    super(init, 'payment_required');
    this.challenges = init.challenges;
    this.reason = init.challenges.length > 0 ? 'payment_challenge' : 'credits_exhausted';
  }
}

/** 404: the resource (e.g. the collection) does not exist or is not visible to this key. */
export class NotFoundError extends ApiError {
  static override readonly kind: string = 'NotFoundError';
  constructor(init: ApiErrorInit) {
    super(init, 'not_found');
  }
}

/** 422: the service refused the input; `issues` are the `{ loc, msg, type }` items. */
export class ValidationError extends ApiError {
  static override readonly kind: string = 'ValidationError';
  readonly issues: ValidationIssue[];

  constructor(init: ApiErrorInit & { issues: ValidationIssue[] }) {
    super(init, 'validation');
    this.issues = init.issues;
  }
}

/** 429 (or JSON-RPC -32000): rate limited; the wait is from `Retry-After`, if it was sent. */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';
  readonly retryAfterMs: number | undefined;
  readonly resetsAt: Date | undefined;
  /** True when nothing was sent: another call's 429, shared through the store, stopped it. */
  readonly paused: boolean;

  constructor(init: ApiErrorInit & { retryAfterMs?: number; resetsAt?: Date; paused?: boolean }) {
    super(init, 'rate_limited');
    this.retryAfterMs = init.retryAfterMs;
    this.resetsAt = init.resetsAt;
    this.paused = init.paused === true;
  }
}

/** 5xx: the service failed. */
export class ServerError extends ApiError {
  static override readonly kind: string = 'ServerError';
  constructor(init: ApiErrorInit) {
    super(init, 'server_error');
  }
}
