import type { AuthChallenge } from '../errors/api-errors.js';
import { decodeBase64UrlJson } from './base64url.js';

/**
 * One `Payment` challenge of a 402 answer (Machine Payments Protocol), decoded: the
 * `request` parameter (base64url JSON) is parsed, and its `amount` and `currency` are
 * lifted out so the application can show the shopper what a call costs.
 */
export interface PaymentChallenge {
  /** Challenge id; the server binds it to the other parameters (HMAC). */
  id: string;
  /** Protection space, e.g. the service's name. */
  realm: string;
  /** Payment method, e.g. `tempo`, `stripe` (lower case per the protocol). */
  method: string;
  /** Payment intent, e.g. `charge`. */
  intent: string;
  /** The decoded `request` parameter, unknown fields kept. */
  request: Record<string, unknown>;
  /** `request.amount` as sent: an integer in the currency's smallest unit (e.g. cents). */
  amount: string | undefined;
  /** `request.currency` as sent: an ISO 4217 code (`usd`) or a token address. */
  currency: string | undefined;
  /** `description`, when the server gave one. */
  description: string | undefined;
  /** When the challenge stops being payable (`expires`, RFC 3339), if given and valid. */
  expiresAt: Date | undefined;
  /** Every parameter as received (names lower-cased), e.g. `digest` and `opaque`. */
  params: Record<string, string>;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

function parseDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Decodes a parsed `WWW-Authenticate` challenge. Returns undefined when it is not a
 * `Payment` challenge or lacks `id`, `method`, `intent` or a readable `request`: such a
 * challenge cannot be paid, so it is left out rather than thrown about.
 */
export function decodePaymentChallenge(challenge: AuthChallenge): PaymentChallenge | undefined {
  if (challenge.scheme.toLowerCase() !== 'payment') return undefined;
  const { params } = challenge;
  const { id, method, intent } = params;
  const request = params.request === undefined ? undefined : decodeBase64UrlJson(params.request);
  if (!id || !method || !intent || request === undefined) return undefined;
  return {
    id,
    realm: params.realm ?? '',
    method,
    intent,
    request,
    amount: text(request.amount),
    currency: text(request.currency),
    description: params.description,
    expiresAt: parseDate(params.expires),
    params: { ...params },
  };
}

/** The payable `Payment` challenges among `challenges`, in the server's order. */
export function decodePaymentChallenges(challenges: readonly AuthChallenge[]): PaymentChallenge[] {
  return challenges.flatMap((challenge) => decodePaymentChallenge(challenge) ?? []);
}
