import { abortable } from '../async.js';
import { PaymentRequiredError } from '../errors/api-errors.js';
import { CatalogError, ConfigurationError } from '../errors/catalog-error.js';
import { TimeoutError } from '../errors/transport-errors.js';
import { MAX_SECRET_LENGTH } from '../http/redact.js';
import { parseWwwAuthenticate } from '../http/www-authenticate.js';
import type { CatalogLogger } from '../logger.js';
import { MCP_OPERATIONS } from '../mcp-operations.js';
import {
  decodeBase64UrlJson,
  decodePaymentChallenges,
  type PaymentChallenge,
  paymentChallengeProblems,
  text,
} from './challenge.js';
import type { PaymentContext, PaymentOptions, PaymentReceipt } from './types.js';

/** What the payment step reads of a call (http/'s CallScope fits; payment/ may not import it). */
export interface PaymentCall {
  readonly operation: string;
  readonly signal: AbortSignal;
  readonly failure: Error | undefined;
}

/** A request the payment step can resend (http/'s OutgoingRequest fits). */
export interface PayableRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

type SendStep<R, C> = (request: R, call: C) => Promise<Response>;

interface PaymentDeps<C> {
  /** Whether an `authorization` value is the client's own API key sent as a bearer token. */
  isApiKeyBearer(value: string): boolean;
  logger: CatalogLogger | undefined;
  /** Redacts the secrets of `call` (the key, and the credential it sent) from `text`. */
  redact(call: C, text: string): string;
  /** Told each credential as it is handed to fetch: from then on it is a secret. */
  credentialSent(call: C, credential: string): void;
}

// Operations that change nothing although they POST (the MCP calls are JSON-RPC POSTs).
const readOnly = (operation: string) =>
  operation === 'websites.search' || MCP_OPERATIONS.has(operation);

const ENDED_WHILE_PAYING =
  ' while waiting for the payment hook (payment.pay) to answer; the request was not resent and nothing was paid';

/**
 * Adds to a PaymentRequiredError's message why each unpayable `Payment` challenge was left
 * out, so the refusal is not mistaken for a declined payment (http/ knows no payments).
 */
export function nameUnpayableChallenges(error: unknown): void {
  if (!(error instanceof PaymentRequiredError)) return;
  const problems = paymentChallengeProblems(error.challenges);
  if (problems.length > 0) error.message = `${error.message} (${problems.join('; ')})`;
}

export function decodePaymentReceipt(header: string): PaymentReceipt {
  const fields = decodeBase64UrlJson(header.trim()) ?? {};
  return {
    method: text(fields.method),
    reference: text(fields.reference),
    status: text(fields.status),
    timestamp: text(fields.timestamp),
    challengeId: text(fields.challengeId ?? fields.challenge_id),
    fields,
    raw: header,
  };
}

/** The call's own TimeoutError or AbortError, saying it ended in the payment step. */
function paymentStepFailure(call: PaymentCall): Error {
  const failure: Error = call.failure ?? new Error(`${call.operation} was aborted`);
  if (failure.message.endsWith(ENDED_WHILE_PAYING)) return failure;
  failure.message += ENDED_WHILE_PAYING;
  if (failure instanceof TimeoutError) failure.duringPayment = true;
  return failure;
}

/**
 * The hook's answer, if fetch can send it (printable ASCII and tabs): fetch would refuse
 * others only once called, indistinguishable from a request that left. Never echoed.
 */
function checkCredential(value: unknown, operation: string): string | undefined {
  const sendable =
    typeof value === 'string' &&
    value.trim() !== '' &&
    value.length <= MAX_SECRET_LENGTH &&
    /^[\x20-\x7e\t]+$/.test(value);
  if (value === undefined || sendable) return value;
  throw new ConfigurationError(
    `${operation}: payment.pay must return undefined or the Authorization header value ("Payment <credential>"), in printable ASCII on one line, at most ${MAX_SECRET_LENGTH} characters; nothing was sent`,
  );
}

/**
 * On a 402 with `Payment` challenges, asks `pay` once per call (retries included) under the
 * call's deadline and signal, and resends the request once with the credential. A 402 is a
 * refusal before processing, so a paid change is applied once. Declined: the 402 stands.
 */
export class PaymentStep<C extends PaymentCall> {
  readonly #options: PaymentOptions;
  readonly #deps: PaymentDeps<C>;
  readonly #askedCalls = new WeakSet<C>();

  constructor(options: PaymentOptions, deps: PaymentDeps<C>) {
    this.#options = options;
    this.#deps = deps;
  }

  /** `send` with this step around it; a paid resend goes through `send` itself, never paid again. */
  wrap<R extends PayableRequest>(send: SendStep<R, C>): SendStep<R, C> {
    return async (request, call) => {
      const response = await send(request, call);
      if (response.status !== 402 || this.#askedCalls.has(call)) return response;
      const offered = parseWwwAuthenticate(response.headers.get('www-authenticate'));
      const challenges = decodePaymentChallenges(offered);
      // A credential can replace the API key sent as a bearer (MCP), never a conversation token.
      const { authorization, ...headers } = request.headers;
      if (challenges.length === 0) return response;
      if (authorization !== undefined && !this.#deps.isApiKeyBearer(authorization)) return response;
      const { operation } = call;
      this.#askedCalls.add(call);
      const { origin, pathname, search } = new URL(request.url);
      const context: PaymentContext = {
        operation,
        method: request.method,
        url: `${origin}${pathname}${search}`,
        mutates: request.method !== 'GET' && !readOnly(operation),
        signal: call.signal,
      };
      const credential = await this.#ask(challenges, context, response, call);
      if (credential === undefined) return response;
      // Not awaited (nor below): a fetch option's stream may settle it only once the body has come.
      void response.body?.cancel().catch(() => undefined);
      // A credential that arrives after the deadline is not sent: the call has ended.
      if (call.signal.aborted) throw paymentStepFailure(call);
      this.#deps.credentialSent(call, credential);
      // The API key sent as a bearer (MCP) moves to `x-api-key`, which the service also accepts.
      const key = authorization?.replace(/^bearer\s+/i, '');
      const paidHeaders = {
        ...headers,
        ...(key && { 'x-api-key': key }),
        authorization: credential,
      };
      const answer = await send({ ...request, headers: paidHeaders }, call);
      this.#receipt(answer, context, call);
      return answer;
    };
  }

  /** The hook's credential or undefined; a hook that never answers ends with the call. */
  async #ask(
    challenges: PaymentChallenge[],
    context: PaymentContext,
    response: Response,
    call: C,
  ): Promise<string | undefined> {
    try {
      const asked = new Promise((resolve) => resolve(this.#options.pay(challenges, context)));
      return checkCredential(await abortable(asked, call.signal), context.operation);
    } catch (error) {
      void response.body?.cancel().catch(() => undefined); // frees the connection
      if (call.signal.aborted) throw paymentStepFailure(call);
      if (CatalogError.is(error)) throw error;
      // The 402 stands: a CatalogError, which the call marks as known not applied.
      const threw = `${context.operation}: payment.pay threw ${this.#deps.redact(call, String(error))}`;
      throw new CatalogError('payment_failed', threw, { cause: error });
    }
  }

  #receipt(answer: Response, context: PaymentContext, call: C): void {
    const header = answer.headers.get('payment-receipt');
    const { onReceipt } = this.#options;
    if (header === null || !answer.ok || onReceipt === undefined) return;
    // The call succeeded and was paid: a failing callback must not turn it into an error.
    const failed = (error: unknown) =>
      this.#deps.logger?.error?.(`${context.operation}: payment.onReceipt threw`, {
        operation: context.operation,
        error: this.#deps.redact(call, error instanceof Error ? error.message : String(error)),
      });
    new Promise((resolve) => resolve(onReceipt(decodePaymentReceipt(header), context))).catch(
      failed,
    );
  }
}
