import type { PaymentChallenge } from './challenge.js';
import type { PaymentReceipt } from './receipt.js';

/** What the client tells the pay hook about the call that met a 402 challenge. */
export interface PaymentContext {
  /** Operation name, e.g. `websites.search`, `collections.update`, `catalog.search`. */
  operation: string;
  /** HTTP method of the request to pay for. */
  method: 'GET' | 'POST' | 'PATCH';
  /** Address of the request (never carries the key). */
  url: string;
  /** Whether the call changes data (a collection update, a conversation create). */
  mutates: boolean;
  /** Aborts with the call (its timeout or the caller's signal): stop waiting for consent. */
  signal: AbortSignal;
}

/**
 * Pays one of a 402's `Payment` challenges: returns the `Authorization` header value to
 * resend the request with (`Payment <credential>`), or `undefined` to decline. Called at
 * most once per client call.
 */
export type PayFunction = (
  challenges: readonly PaymentChallenge[],
  context: PaymentContext,
) => string | undefined | Promise<string | undefined>;

/** The `payment` option of `new CatalogClient({ payment })`. */
export interface PaymentOptions {
  /** Pays a challenge or declines; see {@link PayFunction}. */
  pay: PayFunction;
  /**
   * Receives the `Payment-Receipt` of each paid call that the service accepted. A throw or
   * a rejected promise is logged (redacted) and never fails the paid call.
   */
  onReceipt?: (receipt: PaymentReceipt, context: PaymentContext) => void;
}
