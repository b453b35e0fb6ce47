import { ConfigurationError } from '../errors/catalog-error.js';
import { baseUnits } from './amount.js';

/** Spending limits for one currency, in its smallest unit (cents for `usd`). */
export interface PaymentLimit {
  /** ISO 4217 code (`usd`) or token address; compared case-insensitively. */
  currency: string;
  /** Most one call may pay. Default: no per-call cap beyond `total`. */
  maxPerCall?: string | bigint;
  /** Most this budget pays in all (its lifetime: one client, one session). */
  total: string | bigint;
}

/** Why the budget refused a payment. */
export type BudgetRefusal = 'currency' | 'amount' | 'per_call' | 'total';

/** Money set aside for one payment: `release()` it if the payment does not happen. */
export interface PaymentReservation {
  readonly currency: string;
  readonly amount: bigint;
  /** Gives the amount back (declined, or the credential could not be made). Idempotent. */
  release(): void;
}

interface Account {
  maxPerCall: bigint | undefined;
  total: bigint;
  /** Reserved and not released: counts against `total`. */
  committed: bigint;
}

function limitAmount(value: string | bigint | undefined, field: string): bigint | undefined {
  if (value === undefined) return undefined;
  const units = baseUnits(value);
  if (units === undefined) {
    throw new ConfigurationError(
      `payment limit ${field} must be a non-negative integer amount in the currency's smallest unit`,
    );
  }
  return units;
}

/**
 * Per-currency spending limits for machine payments: currencies not listed are refused,
 * each call is capped by `maxPerCall`, and everything paid is capped by `total`.
 * `reserve` checks and sets aside an amount in one synchronous step, so concurrent calls
 * can never together spend more than `total`; a reservation counts until released.
 */
export class PaymentBudget {
  readonly #accounts = new Map<string, Account>();

  /** @throws ConfigurationError naming the limit that is not a valid amount. */
  constructor(limits: readonly PaymentLimit[]) {
    limits.forEach((limit, index) => {
      const currency = limit.currency?.trim().toLowerCase();
      if (!currency) throw new ConfigurationError(`payment limit [${index}].currency is required`);
      const total = limitAmount(limit.total, `[${index}].total`);
      if (total === undefined)
        throw new ConfigurationError(`payment limit [${index}].total is required`);
      const maxPerCall = limitAmount(limit.maxPerCall, `[${index}].maxPerCall`);
      this.#accounts.set(currency, { maxPerCall, total, committed: 0n });
    });
  }

  /** Sets `amount` aside, or says why it cannot be paid. */
  reserve(
    currency: string | undefined,
    amount: string | undefined,
  ): { ok: true; reservation: PaymentReservation } | { ok: false; reason: BudgetRefusal } {
    const key = currency?.toLowerCase() ?? '';
    const account = this.#accounts.get(key);
    if (account === undefined) return { ok: false, reason: 'currency' };
    const units = baseUnits(amount);
    if (units === undefined) return { ok: false, reason: 'amount' };
    if (account.maxPerCall !== undefined && units > account.maxPerCall)
      return { ok: false, reason: 'per_call' };
    if (account.committed + units > account.total) return { ok: false, reason: 'total' };
    account.committed += units;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      account.committed -= units;
    };
    return { ok: true, reservation: { currency: key, amount: units, release } };
  }

  /** Amount reserved or paid so far in `currency` (0 when not listed). */
  spent(currency: string): bigint {
    return this.#accounts.get(currency.toLowerCase())?.committed ?? 0n;
  }

  /** What is left of `total` in `currency`; undefined when the currency is not allowed. */
  remaining(currency: string): bigint | undefined {
    const account = this.#accounts.get(currency.toLowerCase());
    return account === undefined ? undefined : account.total - account.committed;
  }
}
