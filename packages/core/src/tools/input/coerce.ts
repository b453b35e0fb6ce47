import { isRecord } from '../../is-record.js';

/**
 * Makes one raw value from a model exact before validation, or leaves it as it is for the
 * schema to refuse. Only unambiguous repairs: anything that could mean two things is left
 * for validation to name.
 */
export type Coerce = (value: unknown) => unknown;

const INTEGER_TEXT = /^[+-]?\d+$/;

/** `"5"` (or `" 5 "`) becomes 5; `"5.5"`, `"five"` and `""` stay strings and are refused. */
export const integerText: Coerce = (value) => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return INTEGER_TEXT.test(text) ? Number(text) : value;
};

/** Surrounding whitespace is noise a model adds; an empty result is refused later. */
export const trimmed: Coerce = (value) => (typeof value === 'string' ? value.trim() : value);

/**
 * The member of `values` that `value` names in any letter case (`"gb"` → `"GB"`,
 * `"AFFILIATE"` → `"affiliate"`), or an alias of one (`"UK"` → `"GB"`).
 */
export function oneOf(
  values: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): Coerce {
  const byKey = new Map<string, string>();
  for (const member of values) byKey.set(member.toLowerCase(), member);
  for (const [alias, member] of Object.entries(aliases)) byKey.set(alias.toLowerCase(), member);
  return (value) => {
    if (typeof value !== 'string') return value;
    return byKey.get(value.trim().toLowerCase()) ?? value.trim();
  };
}

/**
 * The list a string holds as JSON text (`'["affiliate"]'`, as the MCP Inspector's CLI and
 * some hosts send a list), or `undefined` when it is not the JSON text of a list. Strict: it
 * must parse and be an array; its items then pass the same coercion and validation as
 * any other list's, so nothing is accepted that a real list would not be.
 */
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
 * A lone item where a list is expected becomes a one-item list, a list sent as JSON text
 * becomes that list; each item is coerced.
 */
export function listOf(item: Coerce): Coerce {
  return (value) => {
    if (typeof value === 'string') return (listInJsonText(value) ?? [value]).map(item);
    return Array.isArray(value) ? value.map(item) : value;
  };
}

/** `null` or a missing value means "none": the empty list. */
export function emptyWhenMissing(inner: Coerce): Coerce {
  return (value) => (value === null || value === undefined ? [] : inner(value));
}

/** Coerces the members of an object named in `fields`; other members are left for validation. */
export function objectOf(fields: Readonly<Record<string, Coerce>>): Coerce {
  return (value) => {
    if (!isRecord(value)) return value;
    const result: Record<string, unknown> = { ...value };
    for (const [key, coerce] of Object.entries(fields)) {
      const coerced = coerce(result[key]);
      if (coerced !== undefined) result[key] = coerced;
    }
    return result;
  };
}

/**
 * Each item of a list is coerced, a list sent as JSON text first parsed; any other value is
 * left for validation.
 */
export function itemsOf(item: Coerce): Coerce {
  return (value) => {
    const list = typeof value === 'string' ? listInJsonText(value) : value;
    return Array.isArray(list) ? list.map(item) : value;
  };
}

/**
 * The top level of a tool's input: every field the model left out becomes `null` (the same
 * meaning: "not given"), then each field is coerced. Members the tool does not know are
 * kept, so validation can name them.
 */
export function topLevel(fields: Readonly<Record<string, Coerce>>): Coerce {
  const coerceFields = objectOf(fields);
  return (value) => {
    if (!isRecord(value)) return value;
    const filled: Record<string, unknown> = { ...value };
    for (const key of Object.keys(fields)) filled[key] ??= null;
    return coerceFields(filled);
  };
}
