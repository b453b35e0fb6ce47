import type { ValidationIssue } from '@catalogkit/core';
import type { Context } from 'hono';
import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { issuesFromZod, PARSE_OPTIONS, validationError } from './errors.js';

/** A parsed JSON body, or the 422 item describing why it could not be parsed. */
type JsonBody = { ok: true; value: unknown } | { ok: false; issue: ValidationIssue };

/** A request body that passed its schema, or the 422 answer to send instead. */
export type ValidatedBody<T> = { ok: true; data: T } | { ok: false; response: Response };

/**
 * Reads the body as JSON whatever the Content-Type says. An empty body reads as
 * `undefined` when `allowEmpty` (optional bodies such as a token mint).
 */
async function readJsonBody(c: Context, allowEmpty: boolean): Promise<JsonBody> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (allowEmpty) return { ok: true, value: undefined };
    return { ok: false, issue: { loc: ['body'], msg: 'Field required', type: 'missing' } };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    return {
      ok: false,
      issue: { loc: ['body', 0], msg: `JSON decode error: ${reason}`, type: 'json_invalid' },
    };
  }
}

/**
 * The JSON body checked against one of core's request schemas (the same schema the client
 * validates with before sending). With `allowEmpty`, no body at all reads as `{}`.
 */
export async function validatedBody<T>(
  c: Context,
  schema: z.$ZodType<T>,
  allowEmpty = false,
): Promise<ValidatedBody<T>> {
  const body = await readJsonBody(c, allowEmpty);
  if (!body.ok) return { ok: false, response: validationError(c, [body.issue]) };
  // Only an allowed empty body is undefined here; JSON `null` is checked like any value.
  const value = body.value === undefined ? {} : body.value;
  const parsed = safeParse(schema, value, PARSE_OPTIONS);
  if (!parsed.success) {
    return { ok: false, response: validationError(c, issuesFromZod(parsed.error, 'body')) };
  }
  return { ok: true, data: parsed.data };
}
