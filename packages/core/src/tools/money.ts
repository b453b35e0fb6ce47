import type { Price } from '../schemas/index.js';

/** One formatter per currency: building an Intl.NumberFormat is not free. */
const formatters = /* @__PURE__ */ new Map<string, Intl.NumberFormat | null>();

/**
 * Formats a price in minor units for an English-speaking shopper: `{ amount: 12999, currency:
 * "USD" }` is `"$129.99"`, JPY 1500 `"¥1,500"`; an unknown code prints as `"2.50 DOLLAR"`.
 */
export function formatMinorUnits(price: Price): string {
  return minorUnitsText(price, formatters);
}

/**
 * {@link formatMinorUnits} with its own formatter cache. The amount is divided by the ISO 4217
 * exponent of the currency (the contract's "minor units"), never by Intl's display digits:
 * CLDR shows HUF and IQD with 0 digits while ISO gives them 2 and 3. Self-contained: the MCP
 * storefront ships this very function as source text, so its cards and the model's text agree.
 */
export function minorUnitsText(
  price: { amount: number; currency: string },
  cache: Map<string, Intl.NumberFormat | null>,
): string {
  const { amount, currency } = price;
  // ISO 4217 exponents other than 2, after each code; every other code, known or not, has 2.
  const odd =
    ' BIF0 CLP0 DJF0 GNF0 ISK0 JPY0 KMF0 KRW0 PYG0 RWF0 UGX0 UYI0 VND0 VUV0 XAF0 XOF0 XPF0 BHD3 IQD3 JOD3 KWD3 LYD3 OMR3 TND3 CLF4 UYW4';
  const at = /^[A-Z]{3}$/.test(currency) ? odd.indexOf(` ${currency}`) : -1;
  const exponent = at < 0 ? 2 : Number(odd[at + 4]);
  if (!cache.has(currency)) {
    let formatter: Intl.NumberFormat | null = null;
    try {
      formatter = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      });
    } catch {
      // Not a well-formed currency code: printed by hand below.
    }
    cache.set(currency, formatter);
  }
  const value = amount / 10 ** exponent;
  const formatter = cache.get(currency);
  return formatter ? formatter.format(value) : `${value.toFixed(exponent)} ${currency}`;
}
