import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { ProtocolError } from '../errors/transport-errors.js';
import { describeIssue, issuePath } from '../validation/request.js';
import { schemaCheck } from '../validation/schema-check.js';
import type { Redactor } from './redact.js';

const SNIPPET_LENGTH = 120;

/** Lower-cased media type of a response, without parameters (`application/json`). */
export function mediaType(response: Response): string {
  const header = response.headers.get('content-type') ?? '';
  // The usual exact values skip the split, trim and lower-casing.
  if (header === 'application/json' || header === 'text/event-stream') return header;
  return header.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The media type for an error message: server text (it may echo the key), so redacted and cut. */
export function typeShown(response: Response, redact: Redactor): string {
  return snippet(mediaType(response), redact) || 'no content type';
}

/** A short, secret-free excerpt of a body for an error message. */
export function snippet(text: string, redact: Redactor): string {
  const flat = redact(text).replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat;
}

/**
 * Deepest nesting accepted in a server's JSON: the contract's deepest path is 9 levels, and
 * a value thousands deep overflows every recursive walk downstream (zod, a host's renderer).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Deletes every own `__proto__` member of a JSON.parse result, in place, and refuses one nested
 * past {@link MAX_JSON_DEPTH} (a ProtocolError). zod before colinhacks/zod#5898, `Object.assign`
 * and deep merges copy it with `out[key] = value`, setting the copy's prototype to the server's.
 */
export function withoutProtoKeys<T>(parsed: T): T {
  if (parsed !== null && typeof parsed === 'object') strip(parsed, 1);
  return parsed;
}

function strip(value: object, depth: number): void {
  if (depth > MAX_JSON_DEPTH) {
    throw new ProtocolError(`the answer's JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (item !== null && typeof item === 'object') strip(item, depth + 1);
    }
    return;
  }
  // for-in reads JSON.parse's key cache; an inherited key (a polluted prototype) is skipped.
  for (const key in value) {
    const member: unknown = (value as Record<string, unknown>)[key];
    if (key === '__proto__' || (member !== null && typeof member === 'object')) {
      if (!Object.hasOwn(value, key)) continue;
      if (key === '__proto__') delete (value as Record<string, unknown>)[key];
      else strip(member as object, depth + 1);
    }
  }
}

/** JSON.parse for text a server sent, through {@link withoutProtoKeys}. */
export function parseServerJson(text: string): unknown {
  return withoutProtoKeys(JSON.parse(text) as unknown);
}

/** Parses a JSON body; truncated or non-JSON text becomes a ProtocolError. */
export function parseJsonText(
  text: string,
  response: Response,
  operation: string,
  redact: Redactor,
): unknown {
  try {
    return parseServerJson(text);
  } catch (error) {
    if (error instanceof ProtocolError) {
      throw new ProtocolError(`${operation}: ${error.message}`, { status: response.status });
    }
    // No cause: JSON.parse's message quotes the body, which the redactor would not see.
    throw new ProtocolError(
      `${operation}: the answer (HTTP ${response.status}, ${typeShown(response, redact)}) is not valid JSON: ${snippet(text, redact)}`,
      { status: response.status },
    );
  }
}

/** Headers as a record, names redacted too: a server may echo the key in one (`x-echo-<key>`). */
export function headerRecord(headers: Headers, redact: Redactor): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[redact(name)] = redact(value);
  });
  return record;
}

/**
 * Parses an answer leniently (unknown fields kept); one missing a required field is a
 * ProtocolError naming it, in core's own words (zod mini loads no locale).
 */
export function parseResponse<S extends z.$ZodType>(
  schema: S,
  data: unknown,
  operation: string,
  status?: number,
): z.output<S> {
  if (schemaCheck(schema)?.(data)) return data as z.output<S>;
  const parsed = safeParse(schema, data);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues
    .map((issue) => `${issuePath(issue) || '(body)'}: ${describeIssue(issue)}`)
    .join('; ');
  throw new ProtocolError(`${operation}: the answer does not match the contract: ${fields}`, {
    status,
  });
}
