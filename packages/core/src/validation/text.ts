/*
 * Rules for text, without zod, so that a chat page that only uses the token helpers bundles
 * no zod at all; the wire schemas (`schemas/conversations.ts`) use the same predicates.
 */
import { type RequestIssue, RequestValidationError } from '../errors/catalog-error.js';

// With the `u` flag a surrogate pair is one code point, so this matches only a lone one.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** True when `text` holds a lone surrogate: not well-formed Unicode, so not sendable as is. */
export function hasLoneSurrogate(text: string): boolean {
  // ES2024's builtin where the runtime has it (Node 20, current browsers and edge runtimes):
  // a plain scan, cheaper than the pattern.
  const isWellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return isWellFormed === undefined ? LONE_SURROGATE.test(text) : !isWellFormed.call(text);
}

/** The issue a string with a lone surrogate gets, wherever it is in a request. */
export const LONE_SURROGATE_MESSAGE = 'must be well-formed Unicode (lone surrogate)';

/** Whether `text` holds more than whitespace. */
export function hasText(text: string): boolean {
  return text.trim() !== '';
}

/** The issue of a shopper's message that {@link hasText} refuses. */
export const MESSAGE_WITHOUT_TEXT = 'must contain text (it is empty or only whitespace)';

/** `value` if it is well-formed text with more than whitespace; else an error naming `path`. */
function requireText(value: unknown, operation: string, path: string, empty: string): string {
  if (typeof value !== 'string') fail(operation, path, 'expected string');
  const issues: RequestIssue[] = [];
  if (!hasText(value)) issues.push({ path, message: empty });
  if (hasLoneSurrogate(value)) issues.push({ path, message: LONE_SURROGATE_MESSAGE });
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
  return value;
}

function fail(operation: string, path: string, message: string): never {
  throw new RequestValidationError(operation, [{ path, message }]);
}

/**
 * An id (a session's, a conversation's): text that is not empty once trimmed, returned
 * trimmed, as `ConversationIdSchema` checks it. Throws a RequestValidationError naming
 * `field` otherwise.
 */
export function requireId(value: unknown, operation: string, field: string): string {
  return requireText(value, operation, field, 'must not be empty').trim();
}

/**
 * The shopper's message, as `TurnRequestSchema` checks it: text with more than whitespace,
 * returned exactly as typed. Throws a RequestValidationError naming `message` otherwise.
 */
export function requireMessage(value: unknown, operation: string): string {
  return requireText(value, operation, 'message', MESSAGE_WITHOUT_TEXT);
}

// An RFC 6750 bearer token is visible ASCII; anything else (a space, CR/LF, NUL, a
// non-ASCII character) either breaks the Authorization header or is sent changed.
const TOKEN_TEXT = /^[\x21-\x7E]+$/;

/**
 * A conversation token about to be sent as `Authorization: Bearer <token>`: visible ASCII
 * only, not empty. Throws a RequestValidationError naming `token` otherwise; the message
 * never quotes the token, which is a secret.
 */
export function requireToken(value: unknown, operation: string): string {
  if (typeof value !== 'string') fail(operation, 'token', 'expected string');
  if (TOKEN_TEXT.test(value)) return value;
  const message =
    'must be visible ASCII only, without spaces or control characters (it is sent in the Authorization header)';
  return fail(operation, 'token', message);
}
