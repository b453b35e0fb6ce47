import { ConfigurationError } from '@catalogkit/core';
import type { PaymentChallenge } from '@catalogkit/core/payment';

/** Most decimal digits a challenge or a limit may state (the largest tokens use 18). */
const MAX_DECIMALS = 36;

/** A base-unit amount (`"25"`) as a bigint; undefined unless it is a non-negative integer. */
function baseUnits(amount: unknown): bigint | undefined {
  if (typeof amount === 'bigint') return amount >= 0n ? amount : undefined;
  return typeof amount === 'string' && /^\d{1,78}$/.test(amount) ? BigInt(amount) : undefined;
}

const isDecimals = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DECIMALS;

const isIsoCode = (currency: string | undefined) => /^[A-Za-z]{3}$/.test(currency ?? '');

/**
 * A currency as a lookup key: ASCII letters lower-cased, nothing else changed. Undefined
 * unless printable ASCII without spaces: `toLowerCase` would fold look-alikes such as the
 * Kelvin sign in `SE\u212A` into `sek`, so non-ASCII codes are refused, not folded.
 */
function currencyKey(currency: string | undefined): string | undefined {
  if (currency === undefined || !/^[\x21-\x7e]+$/.test(currency)) return undefined;
  return currency.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** Minor-unit digits of an ISO 4217 code (2 for USD, 0 for JPY), from Intl; else undefined. */
function isoDigits(currency: string | undefined): number | undefined {
  if (currency === undefined || !isIsoCode(currency)) return undefined;
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return format.resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

/**
 * The one reader of a challenge's price, for what people are shown and what a budget
 * reserves alike, so the two cannot disagree: whole base units, and how many of their digits
 * are decimals (`request.decimals`, else the currency's ISO digits; undefined for a token
 * without them). Undefined when the amount is not a non-negative integer or `decimals` is
 * invalid (the ISO digits then would show another price than the one asked).
 */
function paymentAmount(
  challenge: PaymentChallenge,
): { units: bigint; decimals: number | undefined } | undefined {
  const units = baseUnits(challenge.amount);
  const { decimals } = challenge.request;
  if (units === undefined || (decimals !== undefined && !isDecimals(decimals))) return undefined;
  return { units, decimals: decimals ?? isoDigits(challenge.currency) };
}

/**
 * What a challenge costs, for people: `0.25 USD` (ISO currencies, or with `decimals`), else
 * `250000 base units of 0x20c0…`; exactly what a `PaymentBudget` reserves. Undefined when the
 * challenge is not payable (no valid amount or `decimals`, a currency not printable ASCII).
 */
export function formatPaymentAmount(challenge: PaymentChallenge): string | undefined {
  const amount = paymentAmount(challenge);
  const { currency } = challenge;
  if (amount === undefined) return undefined;
  if (currency === undefined) return `${amount.units} base units`;
  // A look-alike code (`SE\u212A`) would read as a real one; no budget accepts it either.
  if (currencyKey(currency) === undefined) return undefined;
  const { units, decimals } = amount;
  if (decimals === undefined) return `${units} base units of ${currency}`;
  const digits = units.toString().padStart(decimals + 1, '0');
  const number =
    decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return `${number} ${isIsoCode(currency) ? currency.toUpperCase() : currency}`;
}
/** Spending limits for one currency, in its smallest unit (cents for `usd`). */
export interface PaymentLimit {
  /** ISO 4217 code (`usd`) or token address, printable ASCII; ASCII letter case aside. */
  currency: string;
  /**
   * Decimal digits of the unit the amounts count: default the ISO 4217 digits of a code (2
   * for `usd`), else none (a token's base units). A challenge priced with other `decimals`
   * is converted exactly, or refused when finer than this unit.
   */
  decimals?: number;
  /** Most one call may pay. Default: no per-call cap beyond `total`. */
  maxPerCall?: string | bigint;
  /** Most this budget pays in all (its lifetime: one client, one session). */
  total: string | bigint;
}

/**
 * Why the budget refused a payment. `decimals`: the challenge states `decimals` and the limit
 * counts base units without any, so the price shown and the amount reserved could disagree.
 */
export type BudgetRefusal = 'currency' | 'amount' | 'decimals' | 'per_call' | 'total';

interface Account {
  /** Digits of the account's unit; undefined: base units as challenges state them. */
  decimals: number | undefined;
  maxPerCall: bigint | undefined;
  total: bigint;
  /** Reserved and not released: counts against `total`. */
  committed: bigint;
}

/**
 * `units` with `decimals` digits in the account's unit, exactly; `amount` when it is a
 * fraction of that unit, `decimals` when the account has none to convert to.
 */
function inAccountUnits(units: bigint, decimals: number | undefined, account: Account) {
  if (decimals === undefined) return units;
  if (account.decimals === undefined) return 'decimals';
  if (decimals <= account.decimals) return units * 10n ** BigInt(account.decimals - decimals);
  const divisor = 10n ** BigInt(decimals - account.decimals);
  return units % divisor === 0n ? units / divisor : 'amount';
}

/**
 * Per-currency spending limits: currencies not listed are refused, each call is capped by
 * `maxPerCall`, everything paid by `total`. `reserve` checks and sets aside in one
 * synchronous step, so concurrent calls never together spend more than `total`. Amounts are
 * converted exactly, so what `formatPaymentAmount` shows is what is reserved.
 */
export class PaymentBudget {
  readonly #accounts = new Map<string, Account>();

  /** @throws ConfigurationError naming the limit's field that is not valid. */
  constructor(limits: readonly PaymentLimit[]) {
    limits.forEach((limit, index) => {
      const fail = (field: string, problem: string) =>
        new ConfigurationError(`payment limit [${index}].${field} ${problem}`);
      const amount = (field: 'total' | 'maxPerCall') => {
        const units = baseUnits(limit[field]);
        if (units !== undefined || limit[field] === undefined) return units;
        throw fail(field, "must be a non-negative integer amount in the currency's smallest unit");
      };
      const raw = limit.currency;
      const currency = currencyKey(typeof raw === 'string' ? raw.trim() : undefined);
      if (currency === undefined) {
        throw fail('currency', 'must be printable ASCII (an ISO 4217 code or a token address)');
      }
      if (this.#accounts.has(currency)) throw fail('currency', 'is listed twice');
      if (limit.decimals !== undefined && !isDecimals(limit.decimals)) {
        throw fail('decimals', `must be an integer from 0 to ${MAX_DECIMALS}`);
      }
      const total = amount('total');
      if (total === undefined) throw fail('total', 'is required');
      const maxPerCall = amount('maxPerCall');
      const decimals = limit.decimals ?? isoDigits(currency);
      this.#accounts.set(currency, { decimals, maxPerCall, total, committed: 0n });
    });
  }

  /**
   * Sets the challenge's price aside, read as `formatPaymentAmount` shows it (one reader,
   * `paymentAmount`), or says why not. Refused: a currency not listed (`currency`), no valid
   * amount or one finer than the unit (`amount`), `decimals` for a limit without (`decimals`),
   * over a limit (`per_call`, `total`). `release()` (idempotent) gives a reservation back if
   * the payment does not happen.
   */
  reserve(
    challenge: PaymentChallenge,
  ):
    | { ok: true; reservation: { currency: string; amount: bigint; release(): void } }
    | { ok: false; reason: BudgetRefusal } {
    const key = currencyKey(challenge.currency);
    const account = key === undefined ? undefined : this.#accounts.get(key);
    if (key === undefined || account === undefined) return { ok: false, reason: 'currency' };
    const price = paymentAmount(challenge);
    const units = price ? inAccountUnits(price.units, price.decimals, account) : 'amount';
    if (typeof units === 'string') return { ok: false, reason: units };
    if (account.maxPerCall !== undefined && units > account.maxPerCall)
      return { ok: false, reason: 'per_call' };
    if (account.committed + units > account.total) return { ok: false, reason: 'total' };
    account.committed += units;
    let released = false;
    const release = () => {
      if (!released) account.committed -= units;
      released = true;
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
    return account && account.total - account.committed;
  }

  #account(currency: string): Account | undefined {
    const key = currencyKey(currency);
    return key === undefined ? undefined : this.#accounts.get(key);
  }
}
