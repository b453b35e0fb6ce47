import * as z from 'zod/v4';
import { RequestValidationError } from '../errors/catalog-error.js';
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
 * meet the same rules), and with `lone`, a lone string becomes a list of one. With
 * `missing`, `null` or a missing value means "none": the empty list.
 */
export function listOf(item: Coerce, { lone = true, missing = false } = {}): Coerce {
  return (value) => {
    if (missing && (value === null || value === undefined)) return [];
    const list =
      typeof value === 'string' ? (listInJsonText(value) ?? (lone ? [value] : value)) : value;
    return Array.isArray(list) ? list.map(item) : list;
  };
}

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

/**
 * A text field as the model sees it: a plain string in the JSON Schema (strict mode allows
 * no length keywords), checked in the same pass by the tool's rules (not empty after
 * trimming, well-formed Unicode) and by the client's own schema of the wire field (`rule`),
 * so the tool and the client cannot disagree about what is valid.
 */
export function text(options: { what: string; empty: string; rule?: z.core.$ZodType }) {
  return z.string({ error: `must be text: ${options.what}` }).check((payload) => {
    const report = (message: string) =>
      payload.issues.push({ code: 'custom', message, input: payload.value });
    if (payload.value === '') return void report(`must not be empty; ${options.empty}`);
    if (hasLoneSurrogate(payload.value)) {
      return void report('must be well-formed text (it holds a lone surrogate)');
    }
    const checked = options.rule && checkRequest(options.rule, payload.value);
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
 * The input schema of a tool: `coerce` runs first (fields left out become null, unambiguous
 * repairs), then `schema` validates exactly. The JSON Schema of the result is `schema`'s,
 * in both of zod's `io` modes, and LangChain's converter falls back to it too, because the
 * coercion is a preprocess of the whole input rather than of each field.
 */
export function modelInput<T extends z.ZodType>(
  fields: Readonly<Record<string, Coerce>>,
  schema: T,
) {
  return z.preprocess(objectOf(fields, null), schema);
}

/**
 * Validates a tool's input in one pass and throws a RequestValidationError naming every bad
 * field, in the schema's own words (the built-ins' are written for a model).
 */
export function validateToolInput<T>(schema: z.ZodType<T>, input: unknown, toolName: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(({ path, message }) => ({
    path: path.join('.'),
    message,
  }));
  throw new RequestValidationError(toolName, issues);
}
