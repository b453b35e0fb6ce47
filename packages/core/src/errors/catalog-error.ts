/**
 * Each error's `kind`s (one per class in its chain), under a `Symbol.for` symbol: two copies
 * of the package (an adapter bundling its own core) share it, where `instanceof` fails.
 */
const BRAND = Symbol.for('@catalogkit/core.error-kinds');

/** Base class of every error thrown by catalogkit. */
export class CatalogError extends Error {
  /** Brand name of this class; each subclass declares its own. */
  static readonly kind: string = 'CatalogError';

  /** Stable machine-readable error code, e.g. `rate_limited`. */
  readonly code: string;
  /**
   * `true` when a failed call that changes data may have applied its change (timeout or
   * connection lost after sending, a 5xx, a cut answer): read the state before trying
   * again. `false` when it provably did not, and for calls that change nothing.
   */
  readonly outcomeUnknown: boolean = false;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    // Only classes declaring their own `kind`: an undeclared subclass would match its siblings.
    const kinds: string[] = [];
    for (let type: unknown = new.target; type !== Error; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type as object, 'kind')) kinds.push((type as typeof CatalogError).kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds });
  }

  /** Whether `value` is an instance of this class, also from another copy of the package. */
  static is<T>(this: { readonly kind: string; prototype: T }, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: polymorphic on purpose (NotFoundError.is checks NotFoundError)
    const type = this;
    if (value instanceof (type as unknown as abstract new () => T)) return true;
    const kinds = (value as { [BRAND]?: unknown } | null)?.[BRAND];
    return Array.isArray(kinds) && Object.hasOwn(type, 'kind') && kinds.includes(type.kind);
  }
}

/** @internal Records whether a failed data-changing call may have applied its change. */
export function markOutcome(error: unknown, outcomeUnknown: boolean): void {
  if (error instanceof Error && Object.hasOwn(error, BRAND))
    Object.assign(error, { outcomeUnknown });
}

/** One problem found in a request before it was sent. */
export interface RequestIssue {
  /** Dotted path of the offending field, e.g. `add_clauses.0.brand_ids`. */
  path: string;
  /** What is wrong with it, e.g. `must be at most 20`. */
  message: string;
}

/** The request broke the contract's rules and was not sent; the message names every field. */
export class RequestValidationError extends CatalogError {
  static override readonly kind: string = 'RequestValidationError';
  readonly issues: RequestIssue[];

  constructor(operation: string, issues: RequestIssue[]) {
    const list = issues.map((issue) => `${issue.path || '(input)'}: ${issue.message}`).join('; ');
    super('request_validation', `Invalid ${operation} request: ${list}`);
    this.issues = issues;
  }
}

/** The client is missing something it needs (a base URL, an API key) or an option is wrong. */
export class ConfigurationError extends CatalogError {
  static override readonly kind: string = 'ConfigurationError';

  constructor(message: string) {
    super('configuration', message);
  }
}
