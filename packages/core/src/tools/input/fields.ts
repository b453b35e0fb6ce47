import * as z from 'zod/v4';
import { checkRequest } from '../../validation/request.js';
import { hasLoneSurrogate } from '../../validation/text.js';
import { type Coerce, objectOf } from './coerce.js';

type TextPayload = z.core.ParsePayload<string>;

function report(payload: TextPayload, message: string): void {
  payload.issues.push({ code: 'custom', message, input: payload.value });
}

/**
 * A text field as the model sees it: a plain string in the JSON Schema (strict mode allows
 * no length keywords), checked in the same pass by the tool's rules (not empty after
 * trimming, well-formed Unicode) and by the client's own schema of the wire field (`rule`),
 * so the tool and the client cannot disagree about what is valid.
 */
export function text(options: { what: string; empty: string; rule?: z.core.$ZodType }) {
  return z.string({ error: `must be text: ${options.what}` }).check((payload: TextPayload) => {
    if (payload.value === '') return report(payload, `must not be empty; ${options.empty}`);
    if (hasLoneSurrogate(payload.value)) {
      return report(payload, 'must be well-formed text (it holds a lone surrogate)');
    }
    if (options.rule === undefined) return;
    const checked = checkRequest(options.rule, payload.value);
    if (!checked.ok) for (const issue of checked.issues) report(payload, issue.message);
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
