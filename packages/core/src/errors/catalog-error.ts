/** Options shared by every catalogkit error. */
export interface CatalogErrorOptions {
  /** The underlying error, when there is one (never carries the API key). */
  cause?: unknown;
}

/**
 * Base class of every error thrown by catalogkit. `code` is a stable, machine-readable
 * string (for example `rate_limited`), so callers can branch without `instanceof` across
 * bundle copies.
 */
export class CatalogError extends Error {
  /** Stable machine-readable error code. */
  readonly code: string;

  constructor(code: string, message: string, options: CatalogErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem found in a request before it was sent. */
export interface RequestIssue {
  /** Dotted path of the offending field, e.g. `add_clauses.0.brand_ids`. */
  path: string;
  /** What is wrong with it, e.g. `must be at most 20`. */
  message: string;
}

/**
 * The request was refused before anything was sent because its input breaks the
 * contract's rules. The message names every offending field.
 */
export class RequestValidationError extends CatalogError {
  /** Every problem found, one per field. */
  readonly issues: RequestIssue[];

  constructor(operation: string, issues: RequestIssue[]) {
    const list = issues.map((issue) => `${issue.path || '(input)'}: ${issue.message}`).join('; ');
    super('request_validation', `Invalid ${operation} request: ${list}`);
    this.issues = issues;
  }
}

/** The client is missing something it needs (a base URL, an API key) or an option is wrong. */
export class ConfigurationError extends CatalogError {
  constructor(message: string) {
    super('configuration', message);
  }
}
