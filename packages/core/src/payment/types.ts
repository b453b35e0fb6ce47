import type { PaymentChallenge } from './challenge.js';

/** What the client tells the pay hook about the call that met a 402 challenge. */
export interface PaymentContext {
  /** Operation name, e.g. `websites.search`, `collections.update`, `catalog.search`. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Address of the request (never carries the key). */
  url: string;
  /** Whether the call changes data (a collection update, a conversation create). */
  mutates: boolean;
  /** Aborts with the call (its timeout or the caller's signal): stop waiting for consent. */
  signal: AbortSignal;
}

/**
 * Pays one of a 402's `Payment` challenges: returns the `Authorization` value to resend the
 * request with (`Payment <credential>`), or `undefined` to decline. At most once per call.
 */
export type PayFunction = (
  challenges: readonly PaymentChallenge[],
  context: PaymentContext,
) => string | undefined | Promise<string | undefined>;

/** A `Payment-Receipt` header, decoded (base64url JSON); an undecodable one keeps only `raw`. */
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
  /** The header value as received, for the application's records. */
  raw: string;
}

/** The `payment` option of `new CatalogClient({ payment })`. */
export interface PaymentOptions {
  pay: PayFunction;
  /** Gets each accepted paid call's `Payment-Receipt`; a throw is logged, never fails the call. */
  onReceipt?: (receipt: PaymentReceipt, context: PaymentContext) => void;
}
