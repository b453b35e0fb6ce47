import type { z } from 'zod/v4';
import { type RequestIssue, RequestValidationError } from './errors/catalog-error.js';

type ZodIssue = z.core.$ZodIssue;

function sizeMessage(issue: ZodIssue & { origin: string }, bound: 'least' | 'most'): string {
  const limit = 'minimum' in issue ? issue.minimum : 'maximum' in issue ? issue.maximum : '';
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
  if (bound === 'least' && Number(limit) === 1 && issue.origin !== 'number') {
    return 'must not be empty';
  }
  return `must be at ${bound} ${String(limit)}${unit}`;
}

/** Turns a zod issue into a short message that reads well after the field name. */
function describeIssue(issue: ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      return sizeMessage(issue, 'most');
    case 'too_small':
      return sizeMessage(issue, 'least');
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

function toRequestIssue(issue: ZodIssue, prefix: string): RequestIssue {
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return { path, message: describeIssue(issue) };
}

// With the `u` flag a surrogate pair is one code point, so this matches only a lone one.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Strings that are not well-formed Unicode (a lone surrogate) cannot be encoded for the
 * wire: `encodeURIComponent` throws on them and URLSearchParams silently swaps them for
 * U+FFFD, so an id would reach the service changed. Each one found is an issue.
 */
function malformedStrings(value: unknown, path: string[], found: RequestIssue[]): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) {
      found.push({ path: path.join('.'), message: 'must be well-formed Unicode (lone surrogate)' });
    }
  } else if (value !== null && typeof value === 'object') {
    // Arrays too: their entries are [index, item].
    for (const [key, item] of Object.entries(value)) malformedStrings(item, [...path, key], found);
  }
}

/** The outcome of checking one input: its parsed value, or the issues found. */
export type Checked<T> = { ok: true; data: T } | { ok: false; issues: RequestIssue[] };

/** Checks input strictly, without throwing; `prefix` is prepended to paths. */
export function checkRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix = '',
): Checked<z.output<S>> {
  const parsed = schema.safeParse(input);
  const issues = parsed.success
    ? []
    : parsed.error.issues.map((issue) => toRequestIssue(issue, prefix));
  malformedStrings(input, prefix ? [prefix] : [], issues);
  if (parsed.success && issues.length === 0) return { ok: true, data: parsed.data };
  return { ok: false, issues };
}

/**
 * Validates request input strictly; throws a RequestValidationError naming each field.
 * `prefix` is prepended to paths (e.g. `catalog`), so messages match the wire names.
 */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  operation: string,
  prefix = '',
): z.output<S> {
  const checked = checkRequest(schema, input, prefix);
  if (checked.ok) return checked.data;
  throw new RequestValidationError(operation, checked.issues);
}
