// `@catalogkit/core/errors`: every error class catalogkit throws (each a `CatalogError`).

/** The redaction the client applies, for checks outside core (the testing kit's secret checks). */
export { secretEchoesIn } from '../http/redact.js';
export {
  ApiError,
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
  ConfigurationError,
  type RequestIssue,
  RequestValidationError,
} from './catalog-error.js';
export {
  SessionLockTimeoutError,
  StoreUnavailableError,
  TokenMintError,
} from './conversation-errors.js';
export { CatalogToolError, McpError } from './mcp-errors.js';
export {
  AbortError,
  ConnectionError,
  ProtocolError,
  ResponseTooLargeError,
  TimeoutError,
} from './transport-errors.js';
export { RepeatedUpdateError } from './update-errors.js';
