import { challengeHeader, type PaymentOffer } from './challenges.js';
import { type CheckedCredential, checkCredential } from './credentials.js';
import { bytesToBase64Url, toBase64Url } from './encoding.js';

/** Machine-payment settings of the emulator (the `paymentRequired` key's challenges). */
export interface EmulatorPaymentOptions {
  /** HMAC key binding challenge ids; default: random per instance. */
  secretKey?: string;
  /** Price of one call with the `test` method, in the currency's smallest unit. Default `25`. */
  amount?: string;
  /** Currency of the `test` method. Default `usd`. */
  currency?: string;
  /** How long a challenge stays payable. Default 300 s. */
  ttlSeconds?: number;
}

/** One payment the emulator accepted. */
export interface PaymentRecord {
  challengeId: string;
  method: string;
  amount: string | undefined;
  currency: string | undefined;
  /** The receipt's `reference`. */
  reference: string;
  /** The route it paid for, e.g. `PATCH /v1/collections/:collection_id`. */
  route: string;
  at: Date;
}

/** The outcome of presenting (or not) a credential. */
export type Redemption =
  | { ok: true; receipt: string; record: PaymentRecord }
  | { ok: false; detail: string };

/** The method the emulator settles offline: any payload, no funds move. */
export const TEST_PAYMENT_METHOD = 'test';

export const PAYMENT_CHALLENGE_DETAIL =
  'Payment required: satisfy the challenge in the WWW-Authenticate response header and retry.';

function randomSecret(): string {
  return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

function why(
  credential: CheckedCredential,
  now: Date,
  used: ReadonlySet<string>,
): string | undefined {
  if (credential.expires !== undefined && !(credential.expires.getTime() > now.getTime())) {
    return `the challenge expired at ${credential.expires.toISOString()}`;
  }
  if (used.has(credential.id)) return 'the challenge was already paid; a credential pays once';
  if (credential.intent !== 'charge') return `intent ${credential.intent} is not offered`;
  if (credential.method !== TEST_PAYMENT_METHOD) {
    return `method ${credential.method} cannot be settled by the emulator; pay the "${TEST_PAYMENT_METHOD}" challenge`;
  }
  if (credential.payload === null || typeof credential.payload !== 'object') {
    return 'the credential has no payload';
  }
  return undefined;
}

/**
 * Issues `Payment` challenges (two per 402: `tempo`, which needs a real chain, then
 * `test`, which the emulator settles), checks credentials (HMAC-bound id, expiry on the
 * emulator's clock, one use each) and writes receipts.
 */
export class PaymentDesk {
  readonly #secret: string;
  readonly #offers: PaymentOffer[];
  readonly #ttlMs: number;
  readonly #used = new Set<string>();
  readonly #records: PaymentRecord[] = [];

  constructor(options: EmulatorPaymentOptions = {}) {
    this.#secret = options.secretKey ?? randomSecret();
    this.#ttlMs = (options.ttlSeconds ?? 300) * 1000;
    this.#offers = [
      {
        method: 'tempo',
        request: {
          amount: '250000',
          currency: '0x20c0000000000000000000000000000000000000',
          decimals: 6,
          recipient: '0x742d35cc6634c0532925a3b844bc9e7595f8fe00',
        },
      },
      {
        method: TEST_PAYMENT_METHOD,
        request: { amount: options.amount ?? '25', currency: options.currency ?? 'usd' },
      },
    ];
  }

  /** Payments accepted so far, oldest first. */
  get accepted(): readonly PaymentRecord[] {
    return this.#records;
  }

  /** A fresh `WWW-Authenticate` value, payable until `now` + the TTL. */
  challengeHeader(now: Date): Promise<string> {
    return challengeHeader(this.#secret, this.#offers, new Date(now.getTime() + this.#ttlMs));
  }

  /** Checks the `Authorization` header of a call; a good credential is spent here. */
  async redeem(authorization: string | undefined, now: Date, route: string): Promise<Redemption> {
    if (!authorization?.match(/^Payment\s/i))
      return { ok: false, detail: PAYMENT_CHALLENGE_DETAIL };
    const checked = await checkCredential(this.#secret, authorization);
    const reason = checked.ok ? why(checked.credential, now, this.#used) : checked.reason;
    if (!checked.ok || reason !== undefined) {
      return {
        ok: false,
        detail: `Payment refused: ${reason}. Satisfy a new challenge from the WWW-Authenticate header.`,
      };
    }
    const { credential } = checked;
    this.#used.add(credential.id);
    const record: PaymentRecord = {
      challengeId: credential.id,
      method: credential.method,
      amount: typeof credential.request.amount === 'string' ? credential.request.amount : undefined,
      currency:
        typeof credential.request.currency === 'string' ? credential.request.currency : undefined,
      reference: `pay_${String(this.#records.length + 1).padStart(6, '0')}`,
      route,
      at: now,
    };
    this.#records.push(record);
    const receipt = {
      method: record.method,
      reference: record.reference,
      status: 'success',
      timestamp: now.toISOString(),
      challengeId: record.challengeId,
    };
    return { ok: true, receipt: toBase64Url(JSON.stringify(receipt)), record };
  }
}
