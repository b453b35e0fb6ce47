import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { type RequestIssue, RequestValidationError } from '../errors/catalog-error.js';
import { hasLoneSurrogate, LONE_SURROGATE_MESSAGE } from './text.js';

type ZodIssue = z.$ZodIssue;

function sizeMessage(issue: ZodIssue & { origin: string }, bound: 'least' | 'most'): string {
  const limit = 'minimum' in issue ? issue.minimum : 'maximum' in issue ? issue.maximum : '';
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
  if (bound === 'least' && Number(limit) === 1 && issue.origin !== 'number') {
    return 'must not be empty';
  }
  return `must be at ${bound} ${String(limit)}${unit}`;
}

/**
 * A short message that reads well after the field name. Written here rather than taken
 * from zod: the wire schemas use zod mini, which loads no locale, so zod's own text would
 * be "Invalid input" unless the application happens to load zod's full build.
 */
export function describeIssue(issue: ZodIssue): string {
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

/** The dotted path of an issue, below `prefix` (the wire name of the value checked). */
export function issuePath(issue: ZodIssue, prefix = ''): string {
  return [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
}

function toRequestIssue(issue: ZodIssue, prefix: string): RequestIssue {
  return { path: issuePath(issue, prefix), message: describeIssue(issue) };
}

/**
 * Strings that are not well-formed Unicode (a lone surrogate) cannot be encoded for the
 * wire: `encodeURIComponent` throws on them and URLSearchParams silently swaps them for
 * U+FFFD, so an id would reach the service changed. Each one found is an issue. `path` is
 * the way down to `value`, shared and restored, so that a clean input allocates nothing.
 */
function malformedStrings(value: unknown, path: string[], found: RequestIssue[]): void {
  if (typeof value === 'string') {
    if (hasLoneSurrogate(value))
      found.push({ path: path.join('.'), message: LONE_SURROGATE_MESSAGE });
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(String(index));
      malformedStrings(value[index], path, found);
      path.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      path.push(key);
      malformedStrings((value as Record<string, unknown>)[key], path, found);
      path.pop();
    }
  }
}

/** The outcome of checking one input: its parsed value, or the issues found. */
export type Checked<T> = { ok: true; data: T } | { ok: false; issues: RequestIssue[] };

/**
 * Checks input strictly, without throwing: zod's verdict (zod mini and classic schemas
 * alike), and every lone surrogate as an issue too. `prefix` is prepended to paths. The data
 * is zod's output, a copy the caller may keep.
 */
export function checkRequest<S extends z.$ZodType>(
  schema: S,
  input: unknown,
  prefix = '',
): Checked<z.output<S>> {
  const malformed: RequestIssue[] = [];
  malformedStrings(input, prefix ? [prefix] : [], malformed);
  const parsed = safeParse(schema, input);
  if (parsed.success && malformed.length === 0) return { ok: true, data: parsed.data };
  const issues = parsed.success
    ? malformed
    : [...parsed.error.issues.map((issue) => toRequestIssue(issue, prefix)), ...malformed];
  return { ok: false, issues };
}

/**
 * Validates request input strictly; throws a RequestValidationError naming each field.
 * `prefix` is prepended to paths (e.g. `catalog`), so messages match the wire names.
 */
export function validateRequest<S extends z.$ZodType>(
  schema: S,
  input: unknown,
  operation: string,
  prefix = '',
): z.output<S> {
  const checked = checkRequest(schema, input, prefix);
  if (checked.ok) return checked.data;
  throw new RequestValidationError(operation, checked.issues);
}
