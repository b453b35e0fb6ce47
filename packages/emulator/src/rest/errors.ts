import type { ValidationIssue } from '@catalogkit/core';
import type { Context } from 'hono';
import type { z } from 'zod/v4';

type ZodIssue = z.core.$ZodIssue;

/** zod leaves `input` out of issues by default; it is needed to tell "missing" from "wrong type". */
export const PARSE_OPTIONS = { reportInput: true } as const;

/** The contract's string-detail error body. */
export function detailError(
  c: Context,
  status: number,
  detail: string,
  headers?: Record<string, string>,
): Response {
  return c.json({ detail }, status as 400, headers);
}

/** A 422 with the contract's `{ loc, msg, type }` items. */
export function validationError(c: Context, issues: ValidationIssue[]): Response {
  return c.json({ detail: issues }, 422);
}

/** FastAPI-style type names, so clients written against the real service see familiar values. */
function issueType(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'string'
        ? 'string_too_short'
        : issue.origin === 'array'
          ? 'too_short'
          : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string'
        ? 'string_too_long'
        : issue.origin === 'array'
          ? 'too_long'
          : 'less_than_equal';
    case 'invalid_value':
      return 'enum';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    case 'custom':
      return 'value_error';
    default:
      return issue.code;
  }
}

/**
 * Turns zod issues into 422 items. `location` is where the input came from (`query`,
 * `body`, `path`); unknown keys get one item each so every field is named.
 */
export function issuesFromZod(error: z.core.$ZodError, location: string): ValidationIssue[] {
  return error.issues.flatMap((issue): ValidationIssue[] => {
    const loc = [
      location,
      ...issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
    ];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        loc: [...loc, key],
        msg: `Extra inputs are not permitted: ${key}`,
        type: 'extra_forbidden',
      }));
    }
    const msg =
      issue.code === 'invalid_type' && issue.input === undefined ? 'Field required' : issue.message;
    return [{ loc, msg, type: issueType(issue) }];
  });
}
