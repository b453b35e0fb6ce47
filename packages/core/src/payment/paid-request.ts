import { ConfigurationError } from '../errors/catalog-error.js';
import type { CallScope } from '../http/call-scope.js';
import type { OutgoingRequest } from '../http/transport.js';
import { parseWwwAuthenticate } from '../http/www-authenticate.js';
import type { CatalogLogger } from '../logger.js';
import { decodePaymentChallenges, type PaymentChallenge } from './challenge.js';
import { decodePaymentReceipt } from './receipt.js';
import type { PaymentContext, PaymentOptions } from './types.js';

// Operations that change nothing although they POST (the MCP search is a JSON-RPC POST).
const READ_ONLY_OPERATIONS = new Set(['websites.search', 'catalog.search']);

/** What the payment step needs from the connection, beyond the options. */
export interface PaymentDeps {
  /** Whether an `authorization` value is the client's own API key sent as a bearer token. */
  isApiKeyBearer(value: string): boolean;
  logger: CatalogLogger | undefined;
}

function contextOf(request: OutgoingRequest, scope: CallScope): PaymentContext {
  const { origin, pathname, search } = new URL(request.url);
  const url = `${origin}${pathname}${search}`;
  const mutates = request.method !== 'GET' && !READ_ONLY_OPERATIONS.has(scope.operation);
  return { operation: scope.operation, method: request.method, url, mutates, signal: scope.signal };
}

/**
 * The request again with the payment credential in `Authorization`. The API key stays:
 * sent as a bearer token (MCP), it moves to `x-api-key`, which the service also accepts.
 */
function withCredential(
  request: OutgoingRequest,
  credential: string,
  deps: PaymentDeps,
): OutgoingRequest {
  const { authorization, ...headers } = request.headers;
  if (authorization !== undefined && deps.isApiKeyBearer(authorization)) {
    headers['x-api-key'] = authorization.replace(/^bearer\s+/i, '');
  }
  return { ...request, headers: { ...headers, authorization: credential } };
}

/** Throws unless `value` is undefined or a one-line header value; never echoes it. */
function checkCredential(value: unknown, operation: string): asserts value is string | undefined {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) {
    throw new ConfigurationError(
      `${operation}: payment.pay must return the Authorization header value ("Payment <credential>") or undefined`,
    );
  }
}

/**
 * The client's side of machine payments: on a 402 with `Payment` challenges it asks the
 * application's `pay` hook, once per call (retries included), and resends the same request
 * once with the credential. A 402 is a refusal before processing, so the paid resend of a
 * data-changing call is its first and only application. Declined, or refused again: the
 * 402 stands and becomes the usual PaymentRequiredError.
 */
export class PaymentStep {
  readonly #options: PaymentOptions;
  readonly #deps: PaymentDeps;
  readonly #askedCalls = new WeakSet<CallScope>();

  constructor(options: PaymentOptions, deps: PaymentDeps) {
    this.#options = options;
    this.#deps = deps;
  }

  /** The answer to hand on: `response` itself, or the answer to the paid resend. */
  async settle(
    response: Response,
    request: OutgoingRequest,
    scope: CallScope,
    resend: (request: OutgoingRequest) => Promise<Response>,
  ): Promise<Response> {
    if (response.status !== 402 || this.#askedCalls.has(scope)) return response;
    const challenges = decodePaymentChallenges(
      parseWwwAuthenticate(response.headers.get('www-authenticate')),
    );
    if (challenges.length === 0 || !this.#canCarry(request, scope)) return response;
    this.#askedCalls.add(scope);
    const context = contextOf(request, scope);
    const credential = await this.#ask(challenges, context, response);
    if (credential === undefined) return response;
    // The 402's body is not needed once the request is resent.
    await response.body?.cancel().catch(() => undefined);
    const answer = await resend(withCredential(request, credential, this.#deps));
    this.#reportReceipt(answer, context);
    return answer;
  }

  /** Whether a credential can be sent beside the request's own `Authorization`, if any. */
  #canCarry(request: OutgoingRequest, scope: CallScope): boolean {
    const { authorization } = request.headers;
    if (authorization === undefined || this.#deps.isApiKeyBearer(authorization)) return true;
    this.#deps.logger?.warn?.(
      `${scope.operation}: a payment credential cannot share Authorization with a bearer token`,
      { operation: scope.operation },
    );
    return false;
  }

  /** The application's answer: a credential, or undefined to decline. */
  async #ask(
    challenges: PaymentChallenge[],
    context: PaymentContext,
    response: Response,
  ): Promise<string | undefined> {
    try {
      const credential = await this.#options.pay(challenges, context);
      checkCredential(credential, context.operation);
      return credential;
    } catch (error) {
      // The call ends here: free the connection the 402 holds.
      await response.body?.cancel().catch(() => undefined);
      throw error;
    }
  }

  #reportReceipt(answer: Response, context: PaymentContext): void {
    const header = answer.headers.get('payment-receipt');
    if (header === null || !answer.ok || this.#options.onReceipt === undefined) return;
    try {
      this.#options.onReceipt(decodePaymentReceipt(header), context);
    } catch (error) {
      // The call succeeded and was paid: a failing callback must not turn it into an error.
      this.#deps.logger?.error?.(`${context.operation}: payment.onReceipt threw`, {
        operation: context.operation,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
