import type { AuthChallenge } from '../errors/api-errors.js';
import { decodeBase64UrlJson } from './base64url.js';
import { baseUnits, currencyKey, isDecimals, MAX_DECIMALS } from './units.js';

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
  /** `request.currency` as sent: an ISO 4217 code (`usd`) or a token address (ASCII). */
  currency: string | undefined;
  /** `description`, when the server gave one. */
  description: string | undefined;
  /** When the challenge stops being payable (`expires`, RFC 3339), if given. */
  expiresAt: Date | undefined;
  /** Every parameter as received (names lower-cased), e.g. `digest` and `opaque`. */
  params: Record<string, string>;
}

// Strings only: a JSON number amount (12345678901234567891) has already been rounded by
// JSON.parse, so it is refused rather than paid at a price nobody asked.
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

// RFC 3339 `date-time`: full date, `T`, full time with seconds, optional fraction, offset.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** `Date.UTC` for any year: it reads years 0–99 as 1900–1999 (`0099` would become 1999). */
function utcDate(year: number, month: number, ...rest: number[]): Date {
  const date = new Date(Date.UTC(2000, month, ...rest));
  date.setUTCFullYear(year, month, rest[0] ?? 1);
  return date;
}

/**
 * An RFC 3339 date-time as a Date; undefined for anything else. Stricter than `new Date`,
 * which reads `"1"` as the year 2001 and rolls February 30 over into March.
 */
export function parseRfc3339(value: string): Date | undefined {
  const match = RFC3339.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const fraction = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetSign = match[9] === '-' ? -1 : 1;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  const daysInMonth = utcDate(year!, month!, 0).getUTCDate();
  const valid =
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 60 && // a leap second
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  if (!valid) return undefined;
  const local = utcDate(year!, month! - 1, day!, hour!, minute!, second!, fraction).getTime();
  return new Date(local - offsetSign * (offsetHours * 60 + offsetMinutes) * 60_000);
}

/** A challenge read: decoded, or why it cannot be paid (naming the parameter). */
type ReadChallenge = { challenge: PaymentChallenge } | { problem: string };

/** Why the amount fields of `request` make a challenge unpayable, if they do. */
function requestProblem(request: Record<string, unknown>): string | undefined {
  if (request.amount !== undefined && typeof request.amount !== 'string')
    return 'request.amount must be a string (a JSON number may have been rounded)';
  const currency = text(request.currency);
  if (request.currency !== undefined && currencyKey(currency) === undefined)
    return 'request.currency must be printable ASCII (an ISO 4217 code or a token address)';
  if (request.amount !== undefined && baseUnits(text(request.amount)) === undefined)
    return 'request.amount must be a non-negative integer in the smallest unit';
  if (request.decimals !== undefined && !isDecimals(request.decimals))
    return `request.decimals must be an integer from 0 to ${MAX_DECIMALS}`;
  return undefined;
}

/**
 * Reads one `Payment` challenge; undefined for other schemes. A malformed one is not
 * guessed at: an `expires` that is not an RFC 3339 date-time is refused (never read as
 * "does not expire"), as are a non-ASCII currency, an amount that is not an integer and
 * `decimals` out of range.
 */
function readPaymentChallenge(challenge: AuthChallenge): ReadChallenge | undefined {
  if (challenge.scheme.toLowerCase() !== 'payment') return undefined;
  const { params } = challenge;
  const { repeated = [] } = challenge;
  if (repeated.length > 0) return { problem: `${repeated.join(', ')} given more than once` };
  const { id, method, intent } = params;
  if (!id || !method || !intent) return { problem: 'id, method and intent are required' };
  const request = params.request === undefined ? undefined : decodeBase64UrlJson(params.request);
  if (request === undefined) return { problem: 'request must be base64url-encoded JSON' };
  const expiresAt = params.expires === undefined ? undefined : parseRfc3339(params.expires);
  if (params.expires !== undefined && expiresAt === undefined)
    return { problem: 'expires must be an RFC 3339 date-time' };
  const problem = requestProblem(request);
  if (problem !== undefined) return { problem };
  return {
    challenge: {
      id,
      realm: params.realm ?? '',
      method,
      intent,
      request,
      amount: text(request.amount),
      currency: text(request.currency),
      description: params.description,
      expiresAt,
      params: { ...params },
    },
  };
}

/**
 * Decodes a parsed `WWW-Authenticate` challenge. Returns undefined when it is not a
 * `Payment` challenge, or is one that cannot be paid safely: no `id`, `method`, `intent`
 * or readable `request`, an `expires` that is not an RFC 3339 date-time, a non-ASCII
 * currency, a non-integer amount or `decimals` out of range. Such a challenge is left out
 * (see {@link paymentChallengeProblems} for why).
 */
export function decodePaymentChallenge(challenge: AuthChallenge): PaymentChallenge | undefined {
  const read = readPaymentChallenge(challenge);
  return read !== undefined && 'challenge' in read ? read.challenge : undefined;
}

/** The payable `Payment` challenges among `challenges`, in the server's order. */
export function decodePaymentChallenges(challenges: readonly AuthChallenge[]): PaymentChallenge[] {
  return challenges.flatMap((challenge) => decodePaymentChallenge(challenge) ?? []);
}

/**
 * Why each `Payment` challenge that cannot be paid was left out, naming the parameter:
 * `Payment challenge 2: expires must be an RFC 3339 date-time`. Challenges are counted
 * among the `Payment` ones, in the server's order; the server's values are not quoted.
 */
export function paymentChallengeProblems(challenges: readonly AuthChallenge[]): string[] {
  const payment = challenges.filter((challenge) => challenge.scheme.toLowerCase() === 'payment');
  return payment.flatMap((challenge, index) => {
    const read = readPaymentChallenge(challenge);
    return read !== undefined && 'problem' in read
      ? [`Payment challenge ${index + 1}: ${read.problem}`]
      : [];
  });
}
