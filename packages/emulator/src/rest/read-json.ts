import type { ValidationIssue } from '@catalogkit/core';
import type { Context } from 'hono';

/** A parsed JSON body, or the 422 item describing why it could not be parsed. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; issue: ValidationIssue };

/**
 * Reads the body as JSON whatever the Content-Type says. An empty body reads as
 * `undefined` when `allowEmpty` (optional bodies such as a token mint).
 */
export async function readJsonBody(c: Context, allowEmpty = false): Promise<JsonBody> {
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
