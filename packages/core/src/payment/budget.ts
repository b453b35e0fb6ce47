import { ConfigurationError } from '../errors/catalog-error.js';
import { baseUnits, currencyKey, isDecimals, isoDigits, MAX_DECIMALS } from './units.js';

/** Spending limits for one currency, in its smallest unit (cents for `usd`). */
export interface PaymentLimit {
  /**
   * ISO 4217 code (`usd`) or token address, printable ASCII; compared with ASCII letters
   * case-insensitive (a look-alike such as the Kelvin sign never matches a `k`).
   */
  currency: string;
  /**
   * Decimal digits of the unit the amounts below count: default the ISO 4217 digits of a
   * currency code (2 for `usd`: cents), else none (a token's base units, as challenges
   * state them). A challenge priced with other `decimals` is converted exactly, or
   * refused when it is finer than this unit.
   */
  decimals?: number;
  /** Most one call may pay. Default: no per-call cap beyond `total`. */
  maxPerCall?: string | bigint;
  /** Most this budget pays in all (its lifetime: one client, one session). */
  total: string | bigint;
}

/**
 * Why the budget refused a payment. `decimals`: the challenge states `decimals` and the
 * limit counts base units without any (or the other way round), so the price shown and the
 * amount reserved could not be made to agree.
 */
export type BudgetRefusal = 'currency' | 'amount' | 'decimals' | 'per_call' | 'total';

/** Money set aside for one payment: `release()` it if the payment does not happen. */
export interface PaymentReservation {
  readonly currency: string;
  readonly amount: bigint;
  /** Gives the amount back (declined, or the credential could not be made). Idempotent. */
  release(): void;
}

interface Account {
  /** Decimal digits of the account's unit; undefined: base units as challenges state them. */
  decimals: number | undefined;
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

function limitCurrency(limit: PaymentLimit, index: number): string {
  const raw = typeof limit.currency === 'string' ? limit.currency.trim() : undefined;
  if (!raw) throw new ConfigurationError(`payment limit [${index}].currency is required`);
  const key = currencyKey(raw);
  if (key === undefined) {
    throw new ConfigurationError(
      `payment limit [${index}].currency must be printable ASCII (an ISO 4217 code or a token address)`,
    );
  }
  return key;
}

function limitDecimals(limit: PaymentLimit, index: number, currency: string): number | undefined {
  if (limit.decimals === undefined) return isoDigits(currency);
  if (!isDecimals(limit.decimals)) {
    throw new ConfigurationError(
      `payment limit [${index}].decimals must be an integer from 0 to ${MAX_DECIMALS}`,
    );
  }
  return limit.decimals;
}

/**
 * `units` with `decimals` digits, in an account's unit: exact; `amount` when it is a
 * fraction of that unit (0.123456 USD against a budget in cents); `decimals` when the
 * challenge states decimals and the limit has none (a token limit without `decimals`
 * against a challenge stating 18 would show 1.0 and reserve 10^18). Without `decimals`,
 * the amount is taken in the account's unit as stated.
 */
function inAccountUnits(
  units: bigint,
  decimals: number | undefined,
  account: Account,
): bigint | 'amount' | 'decimals' {
  if (decimals === undefined) return units;
  if (account.decimals === undefined) return 'decimals';
  if (decimals <= account.decimals) return units * 10n ** BigInt(account.decimals - decimals);
  const divisor = 10n ** BigInt(decimals - account.decimals);
  return units % divisor === 0n ? units / divisor : 'amount';
}

/**
 * Per-currency spending limits for machine payments: currencies not listed are refused,
 * each call is capped by `maxPerCall`, and everything paid is capped by `total`.
 * `reserve` checks and sets aside an amount in one synchronous step, so concurrent calls
 * can never together spend more than `total`; a reservation counts until released.
 * Amounts are converted exactly between a challenge's `decimals` and the budget's unit,
 * so what `formatPaymentAmount` shows is what is reserved.
 */
export class PaymentBudget {
  readonly #accounts = new Map<string, Account>();

  /** @throws ConfigurationError naming the limit that is not a valid amount. */
  constructor(limits: readonly PaymentLimit[]) {
    limits.forEach((limit, index) => {
      const currency = limitCurrency(limit, index);
      if (this.#accounts.has(currency)) {
        throw new ConfigurationError(`payment limit [${index}].currency is listed twice`);
      }
      const decimals = limitDecimals(limit, index, currency);
      const total = limitAmount(limit.total, `[${index}].total`);
      if (total === undefined)
        throw new ConfigurationError(`payment limit [${index}].total is required`);
      const maxPerCall = limitAmount(limit.maxPerCall, `[${index}].maxPerCall`);
      this.#accounts.set(currency, { decimals, maxPerCall, total, committed: 0n });
    });
  }

  /**
   * Sets `amount` aside, or says why it cannot be paid. `amount` counts units with
   * `decimals` decimal digits (a challenge's `request.decimals`); by default the budget's
   * own unit. Refused: a currency not listed or not ASCII (`currency`), an amount that is
   * not a non-negative integer or is finer than the budget's unit (`amount`), `decimals`
   * stated for a limit that has none (`decimals`), or one over a limit (`per_call`, `total`).
   */
  reserve(
    currency: string | undefined,
    amount: string | bigint | undefined,
    decimals?: number,
  ): { ok: true; reservation: PaymentReservation } | { ok: false; reason: BudgetRefusal } {
    const key = currencyKey(currency);
    const account = key === undefined ? undefined : this.#accounts.get(key);
    if (key === undefined || account === undefined) return { ok: false, reason: 'currency' };
    const stated = baseUnits(amount);
    if (stated === undefined || (decimals !== undefined && !isDecimals(decimals)))
      return { ok: false, reason: 'amount' };
    const units = inAccountUnits(stated, decimals, account);
    if (typeof units === 'string') return { ok: false, reason: units };
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

  /** Amount reserved or paid so far in `currency`, in the budget's unit (0 when not listed). */
  spent(currency: string): bigint {
    return this.#account(currency)?.committed ?? 0n;
  }

  /** What is left of `total` in `currency`; undefined when the currency is not allowed. */
  remaining(currency: string): bigint | undefined {
    const account = this.#account(currency);
    return account === undefined ? undefined : account.total - account.committed;
  }

  #account(currency: string): Account | undefined {
    const key = currencyKey(currency);
    return key === undefined ? undefined : this.#accounts.get(key);
  }
}
