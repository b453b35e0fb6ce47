import type { CatalogLogger } from '../logger.js';
import type { CallScope } from './call-scope.js';
import type { Redactor } from './redact.js';
import type { RetryMode } from './retry.js';
import type { OutgoingRequest } from './transport.js';

/** Per-call options every method accepts. */
export interface RequestOptions {
  /** Cancels the call; it then rejects with AbortError. */
  signal?: AbortSignal;
  /** Time limit of this call (all attempts and waits), overriding the client's. */
  timeoutMs?: number;
}

/** What the calls need of their connection; declared here so http/ depends on nothing above. */
export interface ServiceConnection {
  /** Decides a 401's reason on the MCP endpoint. */
  readonly hasApiKey: boolean;
  readonly options: { readonly logger: CatalogLogger | undefined };
  /** Replaces the key with `[redacted]`. */
  readonly redact: Redactor;
  /**
   * The redactor of one call's answers: the key, the bearer token it carries and the payment
   * credential it sent (`scope.bearer`, `scope.credential`).
   */
  redactFor(scope: CallScope): Redactor;
  // The next three throw a ConfigurationError (nothing sent) when a setting they need is unset.
  restUrl(path: string, operation: string): string;
  mcpEndpoint(operation: string): string;
  apiKeyHeaders(operation: string, withBody: boolean): Record<string, string>;
  mcpHeaders(): Record<string, string>;
  /** `own` over the caller's extra headers. */
  headers(own: Record<string, string>): Record<string, string>;
  /** Runs one call: its scope (timeout, signal) and its retries. */
  run<T>(
    operation: string,
    mode: RetryMode,
    requestOptions: RequestOptions | undefined,
    attempt: (scope: CallScope) => Promise<T>,
  ): Promise<T>;
  /** Sends one HTTP request within `scope` (redirects, and a paid resend, included). */
  send(request: OutgoingRequest, scope: CallScope): Promise<Response>;
}
