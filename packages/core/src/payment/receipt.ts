import { decodeBase64UrlJson } from './base64url.js';

/**
 * A `Payment-Receipt` header, decoded (base64url JSON). Fields the service adds are kept
 * in `fields`; `raw` is the header as received, for the application's records.
 */
export interface PaymentReceipt {
  /** Payment method that settled, e.g. `tempo`. */
  method: string | undefined;
  /** The payment's reference (a transaction hash, a payment id). */
  reference: string | undefined;
  /** `success` for a settled payment. */
  status: string | undefined;
  /** When it settled (RFC 3339), as sent. */
  timestamp: string | undefined;
  /** The challenge it paid, when the service says so. */
  challengeId: string | undefined;
  /** Every field of the decoded receipt. */
  fields: Record<string, unknown>;
  /** The header value as received. */
  raw: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Decodes a `Payment-Receipt` value; an undecodable one keeps only `raw`. */
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
