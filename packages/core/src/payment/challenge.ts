import type { AuthChallenge } from '../errors/api-errors.js';
import { isRecord } from '../is-record.js';

/**
 * One `Payment` challenge of a 402 answer (Machine Payments Protocol), decoded: `request`
 * (base64url JSON) parsed, its `amount` and `currency` lifted out to show the shopper.
 */
export interface PaymentChallenge {
  /** Challenge id; the server binds it to the other parameters (HMAC). */
  id: string;
  realm: string;
  /** Payment method, e.g. `tempo`, `stripe`. */
  method: string;
  /** Payment intent, e.g. `charge`. */
  intent: string;
  /** The decoded `request` parameter, unknown fields kept. */
  request: Record<string, unknown>;
  /** `request.amount` as sent: an integer in the currency's smallest unit. */
  amount: string | undefined;
  /** `request.currency` as sent: an ISO 4217 code (`usd`) or a token address. */
  currency: string | undefined;
  description: string | undefined;
  /** When the challenge stops being payable (`expires`), if given. */
  expiresAt: Date | undefined;
  /** Every parameter as received (names lower-cased), e.g. `digest` and `opaque`. */
  params: Record<string, string>;
}

// Strings only: a JSON number amount has already been rounded by JSON.parse.
export const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Base64url (padding optional) JSON object; undefined for anything else. Web-standard only. */
export function decodeBase64UrlJson(value: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return undefined;
  try {
    const binary = atob(value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const RFC3339 =
  /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(?:\.(\d{1,9}))?([Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** An RFC 3339 date-time as a Date, else undefined (`new Date` reads `"1"` as 2001). */
export function parseRfc3339(value: string): Date | undefined {
  const match = RFC3339.exec(value);
  if (match === null) return undefined;
  const [, date, hour, minute, second, fraction = '', zone = ''] = match;
  const day = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== date) return undefined;
  const leap = second === '60'; // a leap second: the next minute's first second
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  const time = Date.parse(
    `${date}T${hour}:${minute}:${leap ? 59 : second}.${ms}${zone.toUpperCase()}`,
  );
  return new Date(time + (leap ? 1000 : 0));
}

/** One `Payment` challenge (undefined for other schemes), or why it cannot be paid. */
function readChallenge(challenge: AuthChallenge): PaymentChallenge | string | undefined {
  if (challenge.scheme.toLowerCase() !== 'payment') return undefined;
  const { params, repeated = [] } = challenge;
  if (repeated.length > 0) return `${repeated.join(', ')} given more than once`;
  const { id, method, intent } = params;
  if (!id || !method || !intent) return 'id, method and intent are required';
  const request = params.request === undefined ? undefined : decodeBase64UrlJson(params.request);
  if (request === undefined) return 'request must be base64url-encoded JSON';
  const expiresAt = params.expires === undefined ? undefined : parseRfc3339(params.expires);
  if (params.expires !== undefined && expiresAt === undefined)
    return 'expires must be an RFC 3339 date-time';
  const { amount, currency, decimals } = request;
  if (amount !== undefined && typeof amount !== 'string')
    return 'request.amount must be a string (a JSON number may have been rounded)';
  // Non-ASCII is refused, not folded: `SE\u212A` (Kelvin sign) lower-cases to `sek`.
  if (currency !== undefined && !/^[\x21-\x7e]+$/.test(text(currency) ?? ''))
    return 'request.currency must be printable ASCII (an ISO 4217 code or a token address)';
  if (amount !== undefined && !/^\d{1,78}$/.test(amount))
    return 'request.amount must be a non-negative integer in the smallest unit';
  const digits = Number.isInteger(decimals) ? Number(decimals) : -1;
  if (decimals !== undefined && !(digits >= 0 && digits <= 36))
    return 'request.decimals must be an integer from 0 to 36';
  const { description, realm = '' } = params;
  const lifted = { amount: text(amount), currency: text(currency), description, expiresAt };
  return { id, realm, method, intent, request, ...lifted, params: { ...params } };
}

/** The payable `Payment` challenges among `challenges`, in the server's order. */
export function decodePaymentChallenges(challenges: readonly AuthChallenge[]): PaymentChallenge[] {
  return challenges.map(readChallenge).filter((read) => typeof read === 'object');
}

/** Why each unpayable `Payment` challenge was left out: `Payment challenge 2: expires must …`. */
export function paymentChallengeProblems(challenges: readonly AuthChallenge[]): string[] {
  const payment = challenges.filter((challenge) => challenge.scheme.toLowerCase() === 'payment');
  const problem = (read: unknown, index: number) =>
    typeof read === 'string' ? [`Payment challenge ${index + 1}: ${read}`] : [];
  return payment.map(readChallenge).flatMap(problem);
}
