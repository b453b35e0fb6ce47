import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { type RequestIssue, RequestValidationError } from '../errors/catalog-error.js';
import { snapshotRequest } from './snapshot.js';

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

/** The outcome of checking one input: its parsed value, or the issues found. */
export type Checked<T> = { ok: true; data: T } | { ok: false; issues: RequestIssue[] };

/**
 * Checks input strictly, without throwing: zod's verdict on one plain snapshot of the input
 * (`snapshot.ts`), plus what JSON cannot carry. The data is zod's output of the snapshot, so
 * no getter, Proxy or `toJSON` of the caller can change it after the check.
 */
export function checkRequest<S extends z.$ZodType>(
  schema: S,
  input: unknown,
  prefix = '',
): Checked<z.output<S>> {
  const snapshot = snapshotRequest(input, prefix);
  if (snapshot.truncated) return { ok: false, issues: snapshot.issues };
  const parsed = safeParse(schema, snapshot.value);
  if (parsed.success && snapshot.issues.length === 0) return { ok: true, data: parsed.data };
  const issues = parsed.success
    ? snapshot.issues
    : [...parsed.error.issues.map((issue) => toRequestIssue(issue, prefix)), ...snapshot.issues];
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
