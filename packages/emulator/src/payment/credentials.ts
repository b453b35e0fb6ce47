import { type ChallengeFields, challengeId } from './challenges.js';
import { fromBase64Url, sameText } from './encoding.js';

/** A credential's echoed challenge, its id checked against the secret. */
export interface CheckedCredential {
  id: string;
  method: string;
  intent: string;
  expires: Date | undefined;
  /** The decoded payment request (amount, currency). */
  request: Record<string, unknown>;
  payload: unknown;
}

export type CredentialCheck =
  | { ok: true; credential: CheckedCredential }
  | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const optionalText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The fields of an echoed challenge, or undefined when one is missing or mistyped. */
function echoedFields(
  challenge: Record<string, unknown>,
): (ChallengeFields & { id: string }) | undefined {
  const { id, realm, method, intent, request } = challenge;
  if (typeof id !== 'string' || typeof realm !== 'string' || typeof method !== 'string')
    return undefined;
  if (typeof intent !== 'string' || typeof request !== 'string') return undefined;
  return {
    id,
    realm,
    method,
    intent,
    request,
    expires: optionalText(challenge.expires),
    digest: optionalText(challenge.digest),
    opaque: optionalText(challenge.opaque),
  };
}

/**
 * Reads `Authorization: Payment <base64url JSON { challenge, payload, source? }>` and
 * checks that the echoed challenge is one this emulator issued: its id must be the HMAC
 * of its other fields, so a changed amount, method or expiry is caught.
 */
export async function checkCredential(
  secret: string,
  authorization: string,
): Promise<CredentialCheck> {
  const token = authorization.match(/^Payment\s+([A-Za-z0-9_-]+=*)\s*$/i)?.[1];
  const body = parseJson(token === undefined ? undefined : fromBase64Url(token));
  if (!isRecord(body) || !isRecord(body.challenge)) {
    return { ok: false, reason: 'the Authorization header is not a Payment credential' };
  }
  const fields = echoedFields(body.challenge);
  if (fields === undefined)
    return { ok: false, reason: 'the credential does not echo a whole challenge' };
  if (!sameText(fields.id, await challengeId(secret, fields))) {
    return { ok: false, reason: 'the credential echoes a challenge this service did not issue' };
  }
  const request = parseJson(fromBase64Url(fields.request));
  const expires = fields.expires === undefined ? undefined : new Date(fields.expires);
  return {
    ok: true,
    credential: {
      id: fields.id,
      method: fields.method,
      intent: fields.intent,
      expires,
      request: isRecord(request) ? request : {},
      payload: body.payload,
    },
  };
}
