import { ENV_VARS, type ResolvedOptions } from './client-options.js';
import { ConfigurationError } from './errors/catalog-error.js';
import { type CallScope, runCall } from './http/call-scope.js';
import { RateLimitPause } from './http/rate-limit-pause.js';
import { createRedactor, type Redactor } from './http/redact.js';
import type { RetryMode } from './http/retry.js';
import type { RequestOptions, ServiceConnection } from './http/service-connection.js';
import { type OutgoingRequest, send } from './http/transport.js';
import { nameUnpayableChallenges, PaymentStep } from './payment/paid-request.js';
import { randomStamp, scopeDigest } from './store/scope.js';

const missing = (operation: string, what: string, option: keyof typeof ENV_VARS) =>
  new ConfigurationError(
    `${operation} needs ${what}: pass the ${option} option or set ${ENV_VARS[option]}`,
  );

/** One HTTP exchange of a call, as the calls see it (`ServiceConnection.send`). */
type Send = (request: OutgoingRequest, scope: CallScope) => Promise<Response>;

/**
 * The secret part of an `Authorization` value: `Payment eyJ…` gives `eyJ…` (the scheme is
 * public, and text saying `Payment` must stay readable); a value without a scheme is kept.
 */
function credentialToken(value: string): string {
  return (
    /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+(\S.*)$/.exec(value.trim())?.[1] ?? value.trim()
  );
}

/**
 * The client's connection: addresses, credentials, fetch, retries, the payment step. The key
 * lives only in a `#private` field (no JSON.stringify, util.inspect or enumeration shows it).
 */
export class ClientConnection implements ServiceConnection {
  readonly #apiKey: string | undefined;
  readonly #options: Omit<ResolvedOptions, 'apiKey'>;
  /** Redacts the key (a call's own secrets: {@link redactFor}). */
  readonly redact: Redactor;
  readonly send: Send;
  readonly #pause: RateLimitPause;
  #updateScope: Promise<string> | undefined;
  /** Built once: they are the same for every call. */
  readonly #mcpHeaders: Record<string, string>;
  readonly #restHeaders: readonly Record<string, string>[] = [];

  constructor(options: ResolvedOptions) {
    const { apiKey, ...rest } = options;
    this.#apiKey = apiKey;
    this.#options = rest;
    this.redact = createRedactor(apiKey);
    this.#pause = new RateLimitPause({
      store: rest.store,
      policy: rest.retry,
      logger: rest.logger,
      addresses: { rest: rest.baseUrl, mcp: rest.mcpUrl },
      apiKey,
    });
    const fetched: Send = (request, scope) =>
      send(rest.fetch, request, scope, this.redactFor(scope));
    // Only with an instrumentation does an answer cost one more step (its status and tier).
    const plain: Send = rest.instrumentation
      ? (request, scope) =>
          fetched(request, scope).then((response) => {
            scope.observer?.response(response.status, response.headers.get('x-ucp-auth-tier'));
            return response;
          })
      : fetched;
    this.send = rest.payment
      ? new PaymentStep<CallScope>(rest.payment, {
          isApiKeyBearer: (value) => apiKey !== undefined && value === `Bearer ${apiKey}`,
          logger: rest.logger,
          redact: (scope, text) => this.redactFor(scope)(text),
          credentialSent: (scope, credential) => {
            scope.credential = credentialToken(credential);
          },
        }).wrap(plain)
      : plain;
    const json = { 'content-type': 'application/json' };
    const bearer = rest.mcpAuthHeader === 'bearer';
    const mcpKey = bearer ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': `${apiKey}` };
    const mcp = { ...json, accept: 'application/json, text/event-stream' };
    this.#mcpHeaders = this.#frozen(apiKey === undefined ? mcp : { ...mcp, ...mcpKey });
    if (apiKey !== undefined) {
      const own = { accept: 'application/json', 'x-api-key': apiKey };
      this.#restHeaders = [this.#frozen(own), this.#frozen({ ...own, ...json })];
    }
  }

  #frozen(own: Record<string, string>): Record<string, string> {
    return Object.freeze(this.headers(own));
  }

  /**
   * The redactor of one call's answers: the key, its bearer token and the credential it paid
   * with, which answers one challenge and is spent by this call (docs/SECURITY.md).
   */
  redactFor(scope: CallScope): Redactor {
    const { bearer, credential } = scope;
    if (bearer === undefined && credential === undefined) return this.redact;
    return createRedactor(this.#apiKey, bearer, credential);
  }

  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /** A digest of the base URL and key (see `scopeDigest`); without Web Crypto, a private scope. */
  updateScope(): Promise<string> {
    this.#updateScope ??= scopeDigest(this.#options.baseUrl ?? '', this.#apiKey).then(
      (digest) => digest ?? `private-${randomStamp()}`,
    );
    return this.#updateScope;
  }

  clearRateLimitPause(): Promise<void> {
    return this.#pause.clear();
  }

  get options(): Omit<ResolvedOptions, 'apiKey'> {
    return this.#options;
  }

  /**
   * `${baseUrl}${path}`. The base URL has no query or fragment (the options refuse one), so
   * a path starting with "/" stays on its origin; "@evil.example/x" would not.
   */
  restUrl(path: string, operation: string): string {
    const { baseUrl } = this.#options;
    if (baseUrl === undefined) throw missing(operation, 'the REST base URL', 'baseUrl');
    if (!path.startsWith('/')) {
      throw new ConfigurationError(
        `${operation}: path must start with "/" and stay on the base URL`,
      );
    }
    return `${baseUrl}${path}`;
  }

  mcpEndpoint(operation: string): string {
    const { mcpUrl } = this.#options;
    if (mcpUrl === undefined) throw missing(operation, 'the MCP URL', 'mcpUrl');
    return `${mcpUrl}/mcp`;
  }

  /** The headers of a REST call with the API key (and a JSON body, with `withBody`). */
  apiKeyHeaders(operation: string, withBody: boolean): Record<string, string> {
    const headers = this.#restHeaders[withBody ? 1 : 0];
    if (headers) return headers;
    throw missing(operation, 'an API key', 'apiKey');
  }

  mcpHeaders(): Record<string, string> {
    return this.#mcpHeaders;
  }

  /** Caller headers first, so the client's own win; one fetch cannot send is refused here. */
  headers(own: Record<string, string>): Record<string, string> {
    const headers = { ...this.#options.headers, ...own };
    for (const [name, value] of Object.entries(headers)) {
      try {
        new Headers([[name, value]]);
      } catch {
        const why = 'a line break or a character past U+00FF'; // Never its value: a secret.
        throw new ConfigurationError(`headers: ${JSON.stringify(name)} cannot be sent (${why})`);
      }
    }
    return headers;
  }

  /** Runs one call: its scope (timeout, signal) and its retries. */
  run<T>(
    operation: string,
    mode: RetryMode,
    requestOptions: RequestOptions | undefined,
    attempt: (scope: CallScope) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = requestOptions?.timeoutMs ?? this.#options.timeoutMs;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      return Promise.reject(
        new ConfigurationError(`${operation}: timeoutMs must be a positive number of milliseconds`),
      );
    }
    const { retry: policy, logger, limits, instrumentation } = this.#options;
    const settings = {
      operation,
      timeoutMs,
      signal: requestOptions?.signal,
      limits,
      mutates: mode === 'once',
      onFailure: nameUnpayableChallenges,
      instrumentation,
    };
    return runCall(settings, { policy, mode, logger }, attempt, this.#pause);
  }
}
