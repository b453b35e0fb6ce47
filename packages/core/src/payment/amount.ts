import type { PaymentChallenge } from './challenge.js';

/** A base-unit amount (`"25"`) as a bigint; undefined unless it is a non-negative integer. */
export function baseUnits(amount: string | bigint | undefined): bigint | undefined {
  if (typeof amount === 'bigint') return amount >= 0n ? amount : undefined;
  return amount !== undefined && /^\d{1,78}$/.test(amount) ? BigInt(amount) : undefined;
}

/** Minor-unit digits of an ISO 4217 code (2 for USD, 0 for JPY), from Intl; else undefined. */
function isoDigits(currency: string): number | undefined {
  if (!/^[A-Za-z]{3}$/.test(currency)) return undefined;
  try {
    return new Intl.NumberFormat('en', {
      style: 'currency',
      currency: currency.toUpperCase(),
    }).resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

function decimalsOf(challenge: PaymentChallenge, currency: string): number | undefined {
  const { decimals } = challenge.request;
  if (typeof decimals === 'number' && Number.isInteger(decimals) && decimals >= 0 && decimals <= 36)
    return decimals;
  return isoDigits(currency);
}

/** `units` shifted by `digits` decimal places, exactly (no floating point). */
function shift(units: bigint, digits: number): string {
  if (digits === 0) return units.toString();
  const padded = units.toString().padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * What a challenge costs, for people: `0.25 USD` (ISO currencies, or when the request
 * gives `decimals`), else `250000 base units of 0x20c0…`. Undefined without an amount.
 */
export function formatPaymentAmount(challenge: PaymentChallenge): string | undefined {
  const units = baseUnits(challenge.amount);
  const currency = challenge.currency;
  if (units === undefined) return undefined;
  if (currency === undefined) return `${units} base units`;
  const digits = decimalsOf(challenge, currency);
  const code = /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : currency;
  return digits === undefined
    ? `${units} base units of ${currency}`
    : `${shift(units, digits)} ${code}`;
}

/**
 * What a 402's challenges ask, for a model or a shopper: `0.25 USD`, or `0.25 USD or 0.30
 * EUR`. Prices in ISO currencies are preferred over token amounts (an address is noise to
 * a reader); undefined when no challenge states an amount.
 */
export function describePaymentPrice(challenges: readonly PaymentChallenge[]): string | undefined {
  const priced = challenges.flatMap((challenge) => {
    const text = formatPaymentAmount(challenge);
    return text === undefined
      ? []
      : [{ text, iso: /^[A-Za-z]{3}$/.test(challenge.currency ?? '') }];
  });
  const shown = priced.some((price) => price.iso) ? priced.filter((price) => price.iso) : priced;
  const texts = [...new Set(shown.map((price) => price.text))];
  return texts.length === 0 ? undefined : texts.join(' or ');
}
