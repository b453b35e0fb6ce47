import type { Price } from '../schemas/index.js';

/** One formatter per currency: building an Intl.NumberFormat is not free. */
const formatters = /* @__PURE__ */ new Map<string, Intl.NumberFormat | null>();

function formatterFor(currency: string): Intl.NumberFormat | null {
  if (!formatters.has(currency)) {
    let formatter: Intl.NumberFormat | null = null;
    try {
      formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    } catch {
      // Not an ISO 4217 code: printed by hand below.
    }
    formatters.set(currency, formatter);
  }
  return formatters.get(currency) ?? null;
}

/**
 * Formats a price given in minor units with its currency, the way an English-speaking
 * shopper reads it: `{ amount: 12999, currency: "USD" }` is `"$129.99"`, EUR `"€129.99"`,
 * CAD `"CA$129.99"`, JPY (no minor unit) `"¥1,500"`. An unknown code prints as
 * `"2.50 XYZ"`.
 */
export function formatMinorUnits(price: Price): string {
  const formatter = formatterFor(price.currency);
  if (!formatter) return `${(price.amount / 100).toFixed(2)} ${price.currency}`;
  const digits = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  return formatter.format(price.amount / 10 ** digits);
}
