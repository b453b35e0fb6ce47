import type { PaymentChallenge } from './challenge.js';
import { baseUnits, currencyKey, isDecimals, isoDigits } from './units.js';

/** What a challenge asks, as stated: whole base units, and the decimals they have. */
interface PaymentAmount {
  /** `request.amount`: an integer count of the smallest unit. */
  units: bigint;
  /**
   * How many of those digits are decimals: `request.decimals` when given, else the ISO
   * 4217 digits of the currency; undefined for a token without `decimals` (base units).
   */
  decimals: number | undefined;
}

/**
 * The one reader of a challenge's price, for what people are shown and what a budget
 * reserves alike, so the two cannot disagree. Undefined when the amount is not a
 * non-negative integer, or `request.decimals` is present but not an integer from 0 to 36
 * (falling back to the ISO digits then would show a different price than the one asked).
 */
export function paymentAmount(challenge: PaymentChallenge): PaymentAmount | undefined {
  const units = baseUnits(challenge.amount);
  const { decimals } = challenge.request;
  if (units === undefined || (decimals !== undefined && !isDecimals(decimals))) return undefined;
  return { units, decimals: decimals ?? isoDigits(challenge.currency) };
}

/** `units` shifted by `digits` decimal places, exactly (no floating point). */
function shift(units: bigint, digits: number): string {
  if (digits === 0) return units.toString();
  const padded = units.toString().padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * What a challenge costs, for people: `0.25 USD` (ISO currencies, or when the request
 * gives `decimals`), else `250000 base units of 0x20c0…`. Undefined without a valid
 * amount, with invalid `decimals` or a currency that is not printable ASCII: such a
 * challenge is not payable either. The amount
 * shown is exactly the amount a `PaymentBudget` reserves for the challenge.
 */
export function formatPaymentAmount(challenge: PaymentChallenge): string | undefined {
  const amount = paymentAmount(challenge);
  const { currency } = challenge;
  if (amount === undefined) return undefined;
  if (currency === undefined) return `${amount.units} base units`;
  // A look-alike code (`SE\u212A`) would read as a real one; no budget accepts it either.
  if (currencyKey(currency) === undefined) return undefined;
  const code = /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : currency;
  return amount.decimals === undefined
    ? `${amount.units} base units of ${currency}`
    : `${shift(amount.units, amount.decimals)} ${code}`;
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
