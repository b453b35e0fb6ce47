const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string): Intl.NumberFormat {
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formatters.set(currency, formatter);
  }
  return formatter;
}

/** Formats a price in minor units for people: `{ amount: 11999, currency: 'USD' }` is "$119.99". */
export function formatMoney(price: { amount: number; currency: string }): string {
  let formatter: Intl.NumberFormat;
  try {
    formatter = formatterFor(price.currency);
  } catch {
    // An unknown currency code must still print: show the minor units as they came.
    return `${price.amount} ${price.currency} (minor units)`;
  }
  const digits = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  return formatter.format(price.amount / 10 ** digits);
}
