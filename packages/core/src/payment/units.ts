// The rules for amounts and currency codes that challenges, prices and budgets share.

/** Most decimal digits a challenge or a limit may state (the largest tokens use 18). */
export const MAX_DECIMALS = 36;

/** A base-unit amount (`"25"`) as a bigint; undefined unless it is a non-negative integer. */
export function baseUnits(amount: unknown): bigint | undefined {
  if (typeof amount === 'bigint') return amount >= 0n ? amount : undefined;
  return typeof amount === 'string' && /^\d{1,78}$/.test(amount) ? BigInt(amount) : undefined;
}

/** Whether `value` is a valid count of decimal digits: an integer from 0 to 36. */
export function isDecimals(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DECIMALS;
}

/**
 * A currency as a lookup key: ASCII letters lower-cased, nothing else changed. Undefined
 * unless printable ASCII without spaces: `toLowerCase` would fold look-alikes such as the
 * Kelvin sign in `SE\u212A` into `sek`, so non-ASCII codes are refused, not folded.
 */
export function currencyKey(currency: string | undefined): string | undefined {
  if (currency === undefined || !/^[\x21-\x7e]+$/.test(currency)) return undefined;
  return currency.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** Minor-unit digits of an ISO 4217 code (2 for USD, 0 for JPY), from Intl; else undefined. */
export function isoDigits(currency: string | undefined): number | undefined {
  if (currency === undefined || !/^[A-Za-z]{3}$/.test(currency)) return undefined;
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return format.resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}
