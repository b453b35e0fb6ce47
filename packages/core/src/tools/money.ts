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
  // ISO 4217 exponents other than 2 (list one); every other code, known or not, has 2.
  const exponent = /^(?:BIF|CLP|DJF|GNF|ISK|JPY|KMF|KRW|PYG|RWF|UGX|UYI|VND|VUV|XAF|XOF|XPF)$/.test(
    currency,
  )
    ? 0
    : /^(?:BHD|IQD|JOD|KWD|LYD|OMR|TND)$/.test(currency)
      ? 3
      : /^(?:CLF|UYW)$/.test(currency)
        ? 4
        : 2;
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
