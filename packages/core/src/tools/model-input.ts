import * as z from 'zod/v4';
import { isRecord } from '../is-record.js';
import { checkRequest } from '../validation/request.js';
import { hasLoneSurrogate } from '../validation/text.js';

// What models send: unambiguous repairs first (anything that could mean two things is left
// for validation to name), then one strict schema per tool, written for a model.

/** Makes one raw value from a model exact before validation, or leaves it for the schema to refuse. */
export type Coerce = (value: unknown) => unknown;

/** `"5"` (or `" 5 "`) becomes 5; `"5.5"`, `"five"` and `""` stay strings and are refused. */
export const integerText: Coerce = (value) =>
  typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;

/** The member of `values` named in any letter case (`"gb"` → `"GB"`), or by an alias (`"UK"`). */
export function oneOf(values: readonly string[], aliases: Record<string, string> = {}): Coerce {
  const byKey = new Map(Object.entries(aliases).map(([alias, to]) => [alias.toLowerCase(), to]));
  for (const member of values) byKey.set(member.toLowerCase(), member);
  return (value) =>
    typeof value === 'string' ? (byKey.get(value.trim().toLowerCase()) ?? value.trim()) : value;
}

/**
 * The list a string holds as JSON text (`'["affiliate"]'`, as some hosts send lists), if any;
 * trimmed first, as JSON.parse refuses padding such as NBSP or a BOM.
 */
function listInJsonText(value: string): unknown[] | undefined {
  try {
    const parsed: unknown = /^\s*\[/.test(value) ? JSON.parse(value.trim()) : undefined;
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Coerces each item; a list sent as JSON text is parsed first; with `lone`, a lone value becomes
 * a list of one; with `missing`, `null` or a missing value is the empty list.
 */
export function listOf(item: Coerce = (value) => value, { lone = true, missing = false } = {}) {
  return (value: unknown) => {
    if (missing && value == null) return [];
    const list =
      typeof value === 'string' ? (listInJsonText(value) ?? (lone ? [value] : value)) : value;
    return Array.isArray(list) ? list.map(item) : list;
  };
}

/** Coerces the members of an object named in `fields`; others are kept for validation to name. */
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
 * A plain string in the JSON Schema (strict mode allows no length keywords), trimmed, checked
 * by the tool's rules and by `rule`, the client's schema of the wire field, so the two agree.
 */
export function text(what: string, rule?: z.core.$ZodType) {
  return z
    .string({ error: `must be text: ${what}` })
    .trim()
    .check((payload) => {
      const report = (message: string) =>
        payload.issues.push({ code: 'custom', message, input: payload.value });
      if (payload.value === '') return void report(`must not be empty; give ${what}`);
      if (hasLoneSurrogate(payload.value)) {
        return void report('must be well-formed text (it holds a lone surrogate)');
      }
      const checked = rule && checkRequest(rule, payload.value);
      if (checked && !checked.ok) for (const issue of checked.issues) report(issue.message);
    });
}

/** A whole number within bounds; one message for every way to miss it. */
export function wholeNumber(min: number, max: number, otherwise: string) {
  const error = `must be a whole number from ${min} to ${max}, ${otherwise}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** One of `values`; the message lists them, so the model can pick one. */
export function choice<const T extends readonly [string, ...string[]]>(
  values: T,
  otherwise: string,
) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}, ${otherwise}` });
}

/** A list of `item`s; a lone item is coerced to a list before this runs. */
export function list<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, {
    error: (issue) =>
      issue.input === undefined
        ? `required: a list of ${what} ([] for none)`
        : `must be a list of ${what}`,
  });
}

/**
 * A strict object whose unknown members are named with the fields it does take: a model
 * that misspells `limit` as `limt` learns the right name in one step.
 */
export function exactObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}; the fields are ${known}`;
      }
      if (issue.code === 'invalid_type') return `must be an object with the fields ${known}`;
      return undefined;
    },
  });
}

/**
 * A tool's input: fields left out become null, `coerce` repairs, `schema` validates exactly. The
 * coercion preprocesses the whole input, so the JSON Schema (zod's and LangChain's) is `schema`'s.
 */
export function modelInput<T extends z.ZodObject>(
  schema: T,
  coerce: Readonly<Record<string, Coerce>> = {},
) {
  const fields = objectOf(coerce);
  return z.preprocess((value) => {
    if (!isRecord(value)) return value;
    const filled: Record<string, unknown> = { ...value };
    for (const key of Object.keys(schema.shape)) filled[key] ??= null;
    return fields(filled);
  }, schema);
}
