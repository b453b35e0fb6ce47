/*
 * `@catalogkit/core/errors`: every error class catalogkit throws, and the types of their
 * fields. Every class extends `CatalogError` (a stable `code`, `outcomeUnknown`, and a static
 * `is` that also recognises an error from another copy of the package). The root entry
 * re-exports the ones the client's calls throw; the adapters re-export this whole list.
 */

// Thrown by the update_collection tool; its class moves into errors/ with issue 25's store work.
export { RepeatedUpdateError } from '../tools/built-in/update-memory.js';
export {
  ApiError,
  type ApiErrorInit,
  type AuthChallenge,
  AuthenticationError,
  type ErrorDetail,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './api-errors.js';
export {
  CatalogError,
  type CatalogErrorOptions,
  ConfigurationError,
  type RequestIssue,
  RequestValidationError,
} from './catalog-error.js';
export { SessionLockTimeoutError, TokenMintError } from './conversation-errors.js';
export { CatalogToolError, McpError } from './mcp-errors.js';
export {
  AbortError,
  ConnectionError,
  ProtocolError,
  ResponseTooLargeError,
  TimeoutError,
} from './transport-errors.js';
