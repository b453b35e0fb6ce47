import { bytesToBase64Url, canonicalJson, hmacId, toBase64Url } from './encoding.js';

/** The realm of the emulator's challenges; its comma makes clients parse per RFC 9110. */
export const PAYMENT_REALM = 'catalogkit emulator, payments';

/** The fields a Payment challenge binds into its id (the mppx HMAC slots). */
export interface ChallengeFields {
  realm: string;
  method: string;
  intent: string;
  /** The base64url `request` parameter, exactly as sent. */
  request: string;
  expires?: string;
  digest?: string;
  opaque?: string;
}

/** One payment the emulator offers for a call. */
export interface PaymentOffer {
  method: string;
  request: Record<string, string | number>;
}

/**
 * The challenge id: HMAC-SHA256 over `realm|method|intent|request|expires|digest|opaque`
 * (empty slots for absent fields), as mppx computes it, so `Challenge.verify` of mppx
 * accepts the emulator's challenges given the same secret.
 */
export function challengeId(secret: string, fields: ChallengeFields): Promise<string> {
  const slots = [
    fields.realm,
    fields.method,
    fields.intent,
    fields.request,
    fields.expires ?? '',
    fields.digest ?? '',
    fields.opaque ?? '',
  ];
  return hmacId(secret, slots.join('|'));
}

function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * One `Payment id=…, realm=…, method=…, intent="charge", request=…, expires=…, opaque=…`
 * challenge. `opaque` (server data, base64url JSON as mppx writes `meta`) holds a nonce, so
 * two 402s issued in the same millisecond still get different ids: each pays once.
 */
async function challenge(
  secret: string,
  offer: PaymentOffer,
  expires: string,
  opaque: string,
): Promise<string> {
  const fields: ChallengeFields = {
    realm: PAYMENT_REALM,
    method: offer.method,
    intent: 'charge',
    request: toBase64Url(canonicalJson(offer.request)),
    expires,
    opaque,
  };
  const id = await challengeId(secret, fields);
  const params = { id, ...fields };
  return `Payment ${Object.entries(params)
    .map(([name, value]) => `${name}=${quoted(value)}`)
    .join(', ')}`;
}

/** A `WWW-Authenticate` value with one challenge per offer, in the order given. */
export async function challengeHeader(
  secret: string,
  offers: readonly PaymentOffer[],
  expires: Date,
): Promise<string> {
  const stamp = expires.toISOString();
  const nonce = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  const opaque = toBase64Url(canonicalJson({ nonce }));
  const challenges = await Promise.all(
    offers.map((offer) => challenge(secret, offer, stamp, opaque)),
  );
  return challenges.join(', ');
}
