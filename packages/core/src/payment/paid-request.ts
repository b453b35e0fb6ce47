import { ConfigurationError } from '../errors/catalog-error.js';
import type { CallScope } from '../http/call-scope.js';
import type { OutgoingRequest } from '../http/transport.js';
import { parseWwwAuthenticate } from '../http/www-authenticate.js';
import type { CatalogLogger } from '../logger.js';
import { decodePaymentChallenges } from './challenge.js';
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
  const url = `${request.url.origin}${request.url.pathname}${request.url.search}`;
  const mutates = request.method !== 'GET' && !READ_ONLY_OPERATIONS.has(scope.operation);
  return { operation: scope.operation, method: request.method, url, mutates, signal: scope.signal };
}

/**
 * The request again with the payment credential in `Authorization`. The API key stays:
 * sent as a bearer token (MCP), it moves to `x-api-key`, which the service also accepts.
 * Undefined when `Authorization` carries another credential (a conversation token) that
 * cannot share the header.
 */
function withCredential(
  request: OutgoingRequest,
  credential: string,
  deps: PaymentDeps,
): OutgoingRequest | undefined {
  const { authorization, ...headers } = request.headers;
  if (authorization !== undefined) {
    if (!deps.isApiKeyBearer(authorization)) return undefined;
    headers['x-api-key'] = authorization.replace(/^bearer\s+/i, '');
  }
  return { ...request, headers: { ...headers, authorization: credential } };
}

function checkCredential(value: unknown, operation: string): value is string | undefined {
  if (value === undefined) return true;
  // Never echo the value: it is a credential.
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) {
    throw new ConfigurationError(
      `${operation}: payment.pay must return the Authorization header value ("Payment <credential>") or undefined`,
    );
  }
  return true;
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
    if (challenges.length === 0) return response;
    this.#askedCalls.add(scope);
    const context = contextOf(request, scope);
    const credential = await this.#options.pay(challenges, context);
    if (!checkCredential(credential, scope.operation) || credential === undefined) return response;
    const paid = withCredential(request, credential, this.#deps);
    if (paid === undefined) {
      this.#deps.logger?.warn?.(
        `${scope.operation}: cannot send a payment credential beside a bearer token`,
        {
          operation: scope.operation,
        },
      );
      return response;
    }
    // The 402's body is not needed once the request is resent.
    await response.body?.cancel().catch(() => undefined);
    const answer = await resend(paid);
    this.#reportReceipt(answer, context);
    return answer;
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
