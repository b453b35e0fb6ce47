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
import { ErrorResponseSchema, ValidationIssueSchema } from '../schemas/common.js';
import type { Redactor } from './redact.js';
import { headerRecord, parseServerJson, snippet } from './response-body.js';
import { parseRetryAfter } from './retry.js';
import { parseWwwAuthenticate } from './www-authenticate.js';

interface ErrorContext {
  operation: string;
  redact: Redactor;
  /** Whether a credential was sent (decides a 401's reason when `detail` is unclear). */
  credentialSent: boolean;
}

/** The `detail` of an ErrorResponse body, whatever its content type says. */
function readDetail(text: string): ErrorDetail {
  try {
    const parsed = ErrorResponseSchema.safeParse(parseServerJson(text));
    return parsed.success ? parsed.data.detail : undefined;
  } catch {
    return undefined; // Not JSON after all (a proxy page): "no detail".
  }
}

/** Server JSON as text: String() throws on an object whose `toString` is not callable. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function describe(detail: ErrorDetail, text: string, redact: Redactor): string {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return snippet(text, redact) || 'no details';
  return detail
    .map(({ loc, msg, type }) => {
      const path = Array.isArray(loc) ? loc.map(shown).join('.') : 'body';
      return `${path}: ${shown(msg ?? type ?? '')}`;
    })
    .join('; ');
}

type ErrorOf = (init: ApiErrorInit, response: Response, context: ErrorContext) => ApiError;

const BY_STATUS: Record<number, ErrorOf> = {
  401: (init, _response, { credentialSent }) => {
    const text = typeof init.detail === 'string' ? init.detail.toLowerCase() : '';
    const invalid = !text.includes('missing') && (text.includes('invalid') || credentialSent);
    return new AuthenticationError({ ...init, reason: invalid ? 'invalid' : 'missing' });
  },
  // Why a `Payment` challenge could not be paid is added above http/ (nameUnpayableChallenges).
  402: (init, response, context) =>
    new PaymentRequiredError({
      ...init,
      challenges: context.redact(parseWwwAuthenticate(response.headers.get('www-authenticate'))),
    }),
  404: (init) => new NotFoundError(init),
  422: (init) =>
    new ValidationError({
      ...init,
      issues: (Array.isArray(init.detail) ? init.detail : []).flatMap((item) => {
        const parsed = ValidationIssueSchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      }),
    }),
  429: (init, response) =>
    new RateLimitError({ ...init, ...parseRetryAfter(response.headers.get('retry-after')) }),
};

/** An HTTP error answer as its ApiError subclass; the message never names a secret. */
export function errorFromResponse(
  response: Response,
  text: string,
  context: ErrorContext,
): ApiError {
  const { status } = response;
  const detail = context.redact(readDetail(text));
  const init: ApiErrorInit = {
    status,
    detail,
    headers: headerRecord(response.headers, context.redact),
    message: `${context.operation} failed with HTTP ${status}: ${describe(detail, text, context.redact)}`,
  };
  const errorOf = BY_STATUS[status];
  if (errorOf) return errorOf(init, response, context);
  return status >= 500 ? new ServerError(init) : new ApiError(init);
}
