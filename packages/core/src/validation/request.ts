import type { z } from 'zod/v4';
import { type RequestIssue, RequestValidationError } from '../errors/catalog-error.js';
import { hasLoneSurrogate } from './check-rules.js';
import { mayGenerateCode, SchemaCheckCompiler } from './schema-check.js';

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

/**
 * Strings that are not well-formed Unicode (a lone surrogate) cannot be encoded for the
 * wire: `encodeURIComponent` throws on them and URLSearchParams silently swaps them for
 * U+FFFD, so an id would reach the service changed. Each one found is an issue. `path` is
 * the way down to `value`, shared and restored, so that a clean input allocates nothing.
 */
function malformedStrings(value: unknown, path: string[], found: RequestIssue[]): void {
  if (typeof value === 'string') {
    if (hasLoneSurrogate(value)) {
      found.push({ path: path.join('.'), message: 'must be well-formed Unicode (lone surrogate)' });
    }
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

/** True when no string anywhere in `value` holds a lone surrogate. */
function wellFormedDeep(value: unknown): boolean {
  const found: RequestIssue[] = [];
  malformedStrings(value, [], found);
  return found.length === 0;
}

let requestChecks: SchemaCheckCompiler | undefined;

/**
 * The no-copy check of a request schema (see `schemaCheck`), which also requires every
 * string to be well-formed Unicode: one generated function checks a valid request whole.
 */
function requestCheck(schema: z.ZodType): ((value: unknown) => boolean) | undefined {
  requestChecks ??= new SchemaCheckCompiler({ generateCode: mayGenerateCode(), wellFormedDeep });
  return requestChecks.checkOf(schema);
}

/** Input the fast check refused: zod's verdict, with every lone surrogate as an issue too. */
function parseRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: string,
): Checked<z.output<S>> {
  const malformed: RequestIssue[] = [];
  malformedStrings(input, prefix ? [prefix] : [], malformed);
  const parsed = schema.safeParse(input);
  const issues = parsed.success
    ? malformed
    : [...parsed.error.issues.map((issue) => toRequestIssue(issue, prefix)), ...malformed];
  if (parsed.success && issues.length === 0) return { ok: true, data: parsed.data };
  return { ok: false, issues };
}

/** Checks input strictly, without throwing; `prefix` is prepended to paths. */
export function checkRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix = '',
): Checked<z.output<S>> {
  // Fast path: input that already is what zod would return is used as is (callers build
  // what they send from it at once, so a caller changing it later changes nothing sent).
  if (requestCheck(schema)?.(input)) return { ok: true, data: input as z.output<S> };
  return parseRequest(schema, input, prefix);
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
  // The usual valid request costs one generated check, here, in the caller's frame.
  if (requestCheck(schema)?.(input)) return input as z.output<S>;
  const checked = parseRequest(schema, input, prefix);
  if (checked.ok) return checked.data;
  throw new RequestValidationError(operation, checked.issues);
}
