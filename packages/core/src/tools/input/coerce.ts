import { isRecord } from '../../is-record.js';

/**
 * Makes one raw value from a model exact before validation, or leaves it as it is for the
 * schema to refuse. Only unambiguous repairs: anything that could mean two things is left
 * for validation to name.
 */
export type Coerce = (value: unknown) => unknown;

/** `"5"` (or `" 5 "`) becomes 5; `"5.5"`, `"five"` and `""` stay strings and are refused. */
export const integerText: Coerce = (value) =>
  typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;

/** Surrounding whitespace is noise a model adds; an empty result is refused later. */
export const trimmed: Coerce = (value) => (typeof value === 'string' ? value.trim() : value);

/** The member of `values` named in any letter case (`"gb"` → `"GB"`), or by an alias (`"UK"`). */
export function oneOf(values: readonly string[], aliases: Record<string, string> = {}): Coerce {
  const byKey = new Map(Object.entries(aliases).map(([alias, to]) => [alias.toLowerCase(), to]));
  for (const member of values) byKey.set(member.toLowerCase(), member);
  return (value) =>
    typeof value === 'string' ? (byKey.get(value.trim().toLowerCase()) ?? value.trim()) : value;
}

/** The list a string holds as JSON text (`'["affiliate"]'`, as some hosts send lists), if any. */
function listInJsonText(value: string): unknown[] | undefined {
  const text = value.trim();
  if (!text.startsWith('[') || !text.endsWith(']')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each item of a list is coerced; a list sent as JSON text is parsed first (its items then
 * meet the same rules), and with `lone`, a lone string becomes a list of one.
 */
export function listOf(item: Coerce, lone = true): Coerce {
  return (value) => {
    const list =
      typeof value === 'string' ? (listInJsonText(value) ?? (lone ? [value] : value)) : value;
    return Array.isArray(list) ? list.map(item) : list;
  };
}

/** `null` or a missing value means "none": the empty list. */
export const emptyWhenMissing =
  (inner: Coerce): Coerce =>
  (value) =>
    value === null || value === undefined ? [] : inner(value);

/**
 * Coerces the members of an object named in `fields`, a missing one first becoming `fill`
 * when given (`null`: "not given"); other members are kept for validation to name.
 */
export function objectOf(fields: Readonly<Record<string, Coerce>>, fill?: null): Coerce {
  return (value) => {
    if (!isRecord(value)) return value;
    const result: Record<string, unknown> = { ...value };
    for (const [key, coerce] of Object.entries(fields)) {
      const coerced = coerce(fill === null ? (result[key] ?? null) : result[key]);
      if (coerced !== undefined) result[key] = coerced;
    }
    return result;
  };
}
