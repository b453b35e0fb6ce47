import type { PaymentChallenge } from './challenge.js';

const isIsoCode = (currency: string | undefined) => /^[A-Za-z]{3}$/.test(currency ?? '');

/** Minor-unit digits of an ISO 4217 code (2 for USD, 0 for JPY), from Intl; else undefined. */
function isoDigits(currency: string): number | undefined {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    return format.resolvedOptions().maximumFractionDigits;
  } catch {
    return undefined;
  }
}

/**
 * `0.25 USD`, `0.250000 0x20c0` (with `decimals`), `7 base units of 0x20c0`; as mppx shows it.
 * The currency is named only as an ISO code or a token address: the text is decoded after the
 * call's redactor ran, so no other server text (a spent credential) may reach a model.
 */
function price({ amount, currency, request }: PaymentChallenge): string[] {
  if (amount === undefined || currency === undefined || !/^\d+$/.test(amount)) return [];
  const iso = isIsoCode(currency);
  const decimals = request.decimals ?? (iso ? isoDigits(currency) : undefined);
  const units = BigInt(amount).toString();
  const name = iso ? currency.toUpperCase() : /^0x[\da-f]{1,64}$/i.test(currency) ? currency : '';
  if (typeof decimals !== 'number') return [`${units} base units of ${name || 'a token'}`];
  const digits = units.padStart(decimals + 1, '0');
  const number =
    decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return [name ? `${number} ${name}` : `${number} of a token`];
}

/**
 * What a 402's decoded challenges ask, for a model: `0.25 USD or 0.30 EUR`. ISO prices are
 * preferred over token amounts (an address is noise to a reader); undefined without any.
 */
export function describePaymentPrice(challenges: readonly PaymentChallenge[]): string | undefined {
  const iso = challenges.filter((challenge) => isIsoCode(challenge.currency));
  const shown = [...new Set((iso.length > 0 ? iso : challenges).flatMap(price))];
  return shown.length === 0 ? undefined : shown.join(' or ');
}
