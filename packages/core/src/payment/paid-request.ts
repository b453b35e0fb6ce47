import { abortable } from '../async.js';
import { type AuthChallenge, PaymentRequiredError } from '../errors/api-errors.js';
import { ConfigurationError } from '../errors/catalog-error.js';
import { parseWwwAuthenticate } from '../http/www-authenticate.js';
import type { CatalogLogger } from '../logger.js';
import { MCP_OPERATIONS } from '../mcp-operations.js';
import {
  decodePaymentChallenges,
  type PaymentChallenge,
  paymentChallengeProblems,
} from './challenge.js';
import { decodePaymentReceipt } from './receipt.js';
import type { PaymentContext, PaymentOptions } from './types.js';

// Operations that change nothing although they POST (the MCP calls are JSON-RPC POSTs).
const readOnly = (operation: string) =>
  operation === 'websites.search' || MCP_OPERATIONS.has(operation);

/**
 * What the payment step reads of a call (http/'s CallScope fits): declared here, so that
 * payment/ needs nothing of http/ but the header parser.
 */
export interface PaymentCall {
  /** Operation name, e.g. `websites.search`. */
  readonly operation: string;
  /** Aborts with the call (its deadline or the caller's signal). */
  readonly signal: AbortSignal;
  /** The TimeoutError or AbortError that ended the call, if one did. */
  readonly failure: Error | undefined;
}

/** A request the payment step can resend with a credential (http/'s OutgoingRequest fits). */
export interface PayableRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One HTTP exchange: the step the payment step wraps. */
type SendStep<R extends PayableRequest, C extends PaymentCall> = (
  request: R,
  call: C,
) => Promise<Response>;

/** What the payment step needs from the connection, beyond the options. */
interface PaymentDeps<C extends PaymentCall> {
  /** Whether an `authorization` value is the client's own API key sent as a bearer token. */
  isApiKeyBearer(value: string): boolean;
  logger: CatalogLogger | undefined;
  /** The connection's redactor, for log lines. */
  redact: (text: string) => string;
  /** Told each credential as it is handed to fetch: from then on it is a secret. */
  credentialSent(call: C, credential: string): void;
}

/** The errors of calls that ended while the pay hook still had not answered. */
const endedWhilePaying = new WeakSet<object>();

/**
 * Whether `error` ended its call while the application's `pay` hook (its consent step or
 * its credential) had not answered: the call's TimeoutError or AbortError, saying so in
 * its message. Nothing was sent for it, and a budgeted payer released its reservation.
 */
export function endedInPaymentStep(error: unknown): boolean {
  return error !== null && typeof error === 'object' && endedWhilePaying.has(error);
}

/**
 * Adds to a PaymentRequiredError's message why each `Payment` challenge that could not be
 * paid was left out (an `expires` that is no date, a repeated parameter), so the refusal
 * is not mistaken for a declined payment; leaves any other error alone. The connection
 * applies it to the error that ends each call: the 402 is mapped in http/, which knows
 * nothing of payments.
 */
export function nameUnpayableChallenges(error: unknown): void {
  if (!(error instanceof PaymentRequiredError)) return;
  const problems = paymentChallengeProblems(error.challenges);
  if (problems.length > 0) error.message = `${error.message} (${problems.join('; ')})`;
}

/**
 * The call's own TimeoutError or AbortError, its message extended to say the call ended in
 * the payment step: the deadline and the caller's signal bound the hook like any wait.
 */
function paymentStepFailure(scope: PaymentCall): Error {
  const failure: Error = scope.failure ?? new Error(`${scope.operation} was aborted`);
  if (!endedWhilePaying.has(failure)) {
    endedWhilePaying.add(failure);
    failure.message = `${failure.message} while waiting for the payment hook (payment.pay) to answer; the request was not resent and nothing was paid`;
  }
  return failure;
}

function contextOf(request: PayableRequest, scope: PaymentCall): PaymentContext {
  const { origin, pathname, search } = new URL(request.url);
  const url = `${origin}${pathname}${search}`;
  const mutates = request.method !== 'GET' && !readOnly(scope.operation);
  return { operation: scope.operation, method: request.method, url, mutates, signal: scope.signal };
}

/**
 * The request again with the payment credential in `Authorization`. The API key stays:
 * sent as a bearer token (MCP), it moves to `x-api-key`, which the service also accepts.
 */
function withCredential<R extends PayableRequest>(
  request: R,
  credential: string,
  deps: Pick<PaymentDeps<PaymentCall>, 'isApiKeyBearer'>,
): R {
  const { authorization, ...rest } = request.headers;
  const headers: Record<string, string> = { ...rest };
  if (authorization !== undefined && deps.isApiKeyBearer(authorization)) {
    headers['x-api-key'] = authorization.replace(/^bearer\s+/i, '');
  }
  return { ...request, headers: { ...headers, authorization: credential } };
}

/**
 * Throws unless `value` is undefined or a header value fetch can send: printable ASCII,
 * spaces and tabs, on one line. fetch refuses other characters only once called, and such
 * a refusal cannot be told from a request that may have left; refused here, the call ends
 * with nothing sent (`outcomeUnknown: false`). Never echoes the value: it is a secret.
 */
function checkCredential(value: unknown, operation: string): asserts value is string | undefined {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigurationError(
      `${operation}: payment.pay must return the Authorization header value ("Payment <credential>") or undefined`,
    );
  }
  if (!/^[\x20-\x7e\t]+$/.test(value)) {
    throw new ConfigurationError(
      `${operation}: payment.pay returned an Authorization value with a character outside printable ASCII (a line break, a control or non-ASCII character), which cannot be sent in a header; nothing was sent`,
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
export class PaymentStep<C extends PaymentCall> {
  readonly #options: PaymentOptions;
  readonly #deps: PaymentDeps<C>;
  readonly #askedCalls = new WeakSet<C>();

  constructor(options: PaymentOptions, deps: PaymentDeps<C>) {
    this.#options = options;
    this.#deps = deps;
  }

  /**
   * `send` with this step around it: a 402 it can pay is resent once through `send` itself
   * (so a paid resend is never paid again); any other answer is handed on as it came.
   */
  wrap<R extends PayableRequest>(send: SendStep<R, C>): SendStep<R, C> {
    return (request, call) =>
      send(request, call).then((response) =>
        response.status === 402 ? this.#settle(response, request, call, send) : response,
      );
  }

  /** The answer to hand on: the 402 itself, or the answer to the paid resend. */
  async #settle<R extends PayableRequest>(
    response: Response,
    request: R,
    scope: C,
    send: SendStep<R, C>,
  ): Promise<Response> {
    if (this.#askedCalls.has(scope)) return response;
    const offered = parseWwwAuthenticate(response.headers.get('www-authenticate'));
    const challenges = decodePaymentChallenges(offered);
    this.#reportRefused(offered, scope);
    if (challenges.length === 0 || !this.#canCarry(request, scope)) return response;
    this.#askedCalls.add(scope);
    const context = contextOf(request, scope);
    const credential = await this.#ask(challenges, context, response, scope);
    if (credential === undefined) return response;
    // The 402's body is not needed once the request is resent.
    await response.body?.cancel().catch(() => undefined);
    // A credential that arrives after the deadline is not sent: the call has ended.
    if (scope.signal.aborted) throw paymentStepFailure(scope);
    this.#deps.credentialSent(scope, credential);
    const paid = withCredential(request, credential, this.#deps);
    const answer = await send(paid, scope);
    this.#reportReceipt(answer, context);
    return answer;
  }

  /** Logs the malformed challenges left out (the 402 error names them when none is left). */
  #reportRefused(offered: readonly AuthChallenge[], scope: PaymentCall): void {
    const problems = paymentChallengeProblems(offered);
    if (problems.length === 0) return;
    this.#deps.logger?.warn?.(`${scope.operation}: payment challenges left unpaid`, {
      operation: scope.operation,
      problems,
    });
  }

  /** Whether a credential can be sent beside the request's own `Authorization`, if any. */
  #canCarry(request: PayableRequest, scope: PaymentCall): boolean {
    const { authorization } = request.headers;
    if (authorization === undefined || this.#deps.isApiKeyBearer(authorization)) return true;
    this.#deps.logger?.warn?.(
      `${scope.operation}: a payment credential cannot share Authorization with a bearer token`,
      { operation: scope.operation },
    );
    return false;
  }

  /**
   * The application's answer: a credential, or undefined to decline. The hook runs under
   * the call's deadline and signal: one that never answers ends the call at `timeoutMs`
   * (or on abort) with the call's TimeoutError or AbortError, which says so.
   */
  async #ask(
    challenges: PaymentChallenge[],
    context: PaymentContext,
    response: Response,
    scope: PaymentCall,
  ): Promise<string | undefined> {
    try {
      const asked = new Promise<string | undefined>((resolve) =>
        resolve(this.#options.pay(challenges, context)),
      );
      const credential: unknown = await abortable(asked, scope.signal);
      checkCredential(credential, context.operation);
      return credential;
    } catch (error) {
      // The call ends here: free the connection the 402 holds.
      await response.body?.cancel().catch(() => undefined);
      throw scope.signal.aborted ? paymentStepFailure(scope) : error;
    }
  }

  #reportReceipt(answer: Response, context: PaymentContext): void {
    const header = answer.headers.get('payment-receipt');
    if (header === null || !answer.ok || this.#options.onReceipt === undefined) return;
    const failed = (error: unknown) => {
      // The call succeeded and was paid: a failing callback must not turn it into an error.
      this.#deps.logger?.error?.(`${context.operation}: payment.onReceipt threw`, {
        operation: context.operation,
        error: this.#deps.redact(error instanceof Error ? error.message : String(error)),
      });
    };
    try {
      const result: unknown = this.#options.onReceipt(decodePaymentReceipt(header), context);
      // An async callback that rejects would otherwise be an unhandled rejection.
      if (isThenable(result)) Promise.resolve(result).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}

/** Whether a hook's result is a promise (or another thenable) that may still reject. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
