import {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  type ErrorDetail,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../errors/api-errors.js';
import {
  ErrorResponseSchema,
  type ValidationIssue,
  ValidationIssueSchema,
} from '../schemas/common.js';
import type { Redactor } from './redact.js';
import { headerRecord, parseServerJson, snippet } from './response-body.js';
import { parseRetryAfter } from './retry.js';
import { parseWwwAuthenticate } from './www-authenticate.js';

/** What is known about the call that got the error answer. */
interface ErrorContext {
  operation: string;
  redact: Redactor;
  /** Whether a credential was sent (decides a 401's reason when `detail` is unclear). */
  credentialSent: boolean;
}

/** The `detail` of an ErrorResponse body, or undefined when the body is not one. */
function readDetail(text: string): ErrorDetail {
  // Parsed whatever the content type says: some servers label JSON errors as text/plain.
  let body: unknown;
  try {
    body = parseServerJson(text);
  } catch {
    return undefined; // Not JSON after all (a proxy page): "no detail".
  }
  const parsed = ErrorResponseSchema.safeParse(body);
  return parsed.success ? parsed.data.detail : undefined;
}

function describe(detail: ErrorDetail, text: string, redact: Redactor): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => `${formatLoc(item.loc)}: ${String(item.msg ?? item.type ?? '')}`)
      .join('; ');
  }
  return snippet(text, redact) || 'no details';
}

function formatLoc(loc: unknown): string {
  return Array.isArray(loc) ? loc.map(String).join('.') : 'body';
}

function validationIssues(detail: ErrorDetail): ValidationIssue[] {
  if (!Array.isArray(detail)) return [];
  return detail.flatMap((item) => {
    const parsed = ValidationIssueSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

function authReason(detail: ErrorDetail, credentialSent: boolean): 'missing' | 'invalid' {
  const text = typeof detail === 'string' ? detail.toLowerCase() : '';
  if (text.includes('missing')) return 'missing';
  if (text.includes('invalid')) return 'invalid';
  return credentialSent ? 'invalid' : 'missing';
}

function byStatus(init: ApiErrorInit, response: Response, context: ErrorContext): ApiError {
  const { status } = init;
  if (status === 401) {
    return new AuthenticationError({
      ...init,
      reason: authReason(init.detail, context.credentialSent),
    });
  }
  if (status === 402) {
    // Why a `Payment` challenge could not be paid is added by the connection (payment/
    // lives above http/): see nameUnpayableChallenges.
    const offered = parseWwwAuthenticate(response.headers.get('www-authenticate'));
    return new PaymentRequiredError({ ...init, challenges: context.redact(offered) });
  }
  if (status === 404) return new NotFoundError(init);
  if (status === 422)
    return new ValidationError({ ...init, issues: validationIssues(init.detail) });
  if (status === 429) {
    return new RateLimitError({ ...init, ...parseRetryAfter(response.headers.get('retry-after')) });
  }
  if (status >= 500) return new ServerError(init);
  return new ApiError(init);
}

/**
 * Maps an HTTP error answer to its ApiError subclass, with the parsed `detail`, the
 * headers, and a message that names the operation and status and never the key.
 */
export function errorFromResponse(
  response: Response,
  text: string,
  context: ErrorContext,
): ApiError {
  const detail = context.redact(readDetail(text));
  const summary = describe(detail, text, context.redact);
  const init: ApiErrorInit = {
    status: response.status,
    detail,
    headers: headerRecord(response.headers, context.redact),
    message: `${context.operation} failed with HTTP ${response.status}: ${summary}`,
  };
  return byStatus(init, response, context);
}
