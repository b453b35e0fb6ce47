import type { PaymentChallenge } from './challenge.js';
import { baseUnits, currencyKey, isDecimals, isoDigits } from './units.js';

/**
 * The one reader of a challenge's price, for what people are shown and what a budget
 * reserves alike, so the two cannot disagree: whole base units, and how many of their digits
 * are decimals (`request.decimals`, else the currency's ISO digits; undefined for a token
 * without them). Undefined when the amount is not a non-negative integer or `decimals` is
 * invalid (the ISO digits then would show another price than the one asked).
 */
export function paymentAmount(
  challenge: PaymentChallenge,
): { units: bigint; decimals: number | undefined } | undefined {
  const units = baseUnits(challenge.amount);
  const { decimals } = challenge.request;
  if (units === undefined || (decimals !== undefined && !isDecimals(decimals))) return undefined;
  return { units, decimals: decimals ?? isoDigits(challenge.currency) };
}

const isIsoCode = (currency: string | undefined) => /^[A-Za-z]{3}$/.test(currency ?? '');

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

/**
 * What a 402's challenges ask, for a model or a shopper: `0.25 USD or 0.30 EUR`. ISO prices
 * are preferred over token amounts (an address is noise to a reader); undefined without any.
 */
export function describePaymentPrice(challenges: readonly PaymentChallenge[]): string | undefined {
  const iso = challenges.filter((challenge) => isIsoCode(challenge.currency));
  const priced = (list: readonly PaymentChallenge[]) => [
    ...new Set(list.flatMap((challenge) => formatPaymentAmount(challenge) ?? [])),
  ];
  const isoPrices = priced(iso);
  const shown = isoPrices.length > 0 ? isoPrices : priced(challenges);
  return shown.length === 0 ? undefined : shown.join(' or ');
}
