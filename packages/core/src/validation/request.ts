import type * as z from 'zod/v4/core';
import { safeParse } from 'zod/v4/core';
import { type RequestIssue, RequestValidationError } from '../errors/catalog-error.js';
import { schemaCheck } from './schema-check.js';
import { hasLoneSurrogate, LONE_SURROGATE_MESSAGE } from './text.js';

function sizeMessage(issue: z.$ZodIssue & { origin: string }, bound: 'least' | 'most'): string {
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
export function describeIssue(issue: z.$ZodIssue): string {
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
export function issuePath(issue: z.$ZodIssue, prefix = ''): string {
  return [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
}

/** Deepest nesting of a request; a cycle ends there too. */
const MAX_DEPTH = 256;
/** Most values (strings, numbers, objects, items, holes) one request may hold. */
const MAX_VALUES = 1_000_000;

/** Ends the copy of a request: too deep, too large, or too many problems. */
class Stop {
  constructor(
    readonly path: string[],
    readonly message: string,
  ) {}
}

/** Why JSON cannot carry `value` as it is, or undefined when it can. */
function refusal(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case 'string':
      // JSON.stringify would escape a lone surrogate rather than refuse it.
      return hasLoneSurrogate(value) ? LONE_SURROGATE_MESSAGE : undefined;
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : 'must be a finite number (JSON has no NaN or Infinity)';
    case 'undefined':
      return inArray
        ? 'must not be undefined or a hole in a list (JSON would send null)'
        : undefined;
    case 'function':
    case 'symbol':
    case 'bigint':
      return `cannot be sent as JSON (${typeof value})`;
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      // Map, Set, RegExp, typed arrays, boxed primitives: JSON would send `{}`, a bare
      // string or a list of digits, not what the caller holds.
      const tag = Object.prototype.toString.call(value);
      return tag === '[object Object]' ? undefined : `cannot be sent as JSON (${tag.slice(8, -1)})`;
    }
    default:
      return undefined;
  }
}

/** One copy of a request in progress: its issues, the path (shown keys) being copied. */
interface Walk {
  readonly issues: RequestIssue[];
  readonly path: string[];
  values: number;
}

/** Most problems one request reports: the rest would only grow the error. */
const MAX_ISSUES = 100;
const hexEscape = (unit: string) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`;

function report(walk: Walk, message: string): undefined {
  if (walk.issues.length >= MAX_ISSUES)
    throw new Stop(walk.path.slice(0, 1), `more than ${MAX_ISSUES} problems`);
  walk.issues.push({ path: walk.path.join('.'), message });
  return undefined;
}

/** Copies one member: `toJSON` called once, as JSON.stringify would; undefined when refused. */
function copy(walk: Walk, raw: unknown, key: string, depth: number, inArray: boolean): unknown {
  if (++walk.values > MAX_VALUES)
    throw new Stop(walk.path.slice(0, 1), `too large (more than ${MAX_VALUES} values)`);
  const toJson = raw !== null && typeof raw === 'object' ? (raw as { toJSON?: unknown }).toJSON : 0;
  const value = typeof toJson === 'function' ? toJson.call(raw, key) : raw;
  const refused = refusal(value, inArray);
  if (refused !== undefined) return report(walk, refused);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) {
    // Too deep a path to print whole: its first levels name the field that goes too deep.
    const first = walk.path.slice(0, 3);
    first.push(`${first.pop() ?? ''}…`);
    throw new Stop(first, `nested too deeply or circular (more than ${MAX_DEPTH} levels)`);
  }
  const source = value as Record<string, unknown>;
  if (Array.isArray(source)) {
    const items: unknown[] = [];
    for (let index = 0; index < source.length; index++) {
      walk.path.push(String(index));
      items.push(copy(walk, source[index], String(index), depth + 1, true));
      walk.path.pop();
    }
    return items;
  }
  const target: Record<string, unknown> = {};
  for (const name of Object.keys(source)) {
    const lone = hasLoneSurrogate(name);
    // Shown with a lone surrogate as `\uD800` text, so that messages stay well-formed.
    walk.path.push(lone ? name.replace(/[\uD800-\uDFFF]/gu, hexEscape) : name);
    if (lone) report(walk, `field name ${LONE_SURROGATE_MESSAGE}`);
    // zod's output, which is what is sent, would drop it silently.
    const member =
      name === '__proto__'
        ? report(walk, 'a member named __proto__ cannot be sent; rename it')
        : copy(walk, source[name], name, depth + 1, false);
    walk.path.pop();
    if (member !== undefined) target[name] = member;
  }
  return target;
}

/** The outcome of checking one input: its parsed value, or the issues found. */
export type Checked<T> = { ok: true; data: T } | { ok: false; issues: RequestIssue[] };

/**
 * Checks input strictly, without throwing. The request is first copied as JSON sends it, each
 * member read and each `toJSON` called once: zod checks this copy and its output is sent, so
 * what was checked is what is sent, whatever getters, Proxies or `toJSON` answer a second time.
 * What JSON would change or cannot carry is refused, each named; a hole counts as a value, so a
 * sparse list of 2^32-1 items stops at MAX_VALUES.
 */
export function checkRequest<S extends z.$ZodType>(
  schema: S,
  input: unknown,
  prefix = '',
): Checked<z.output<S>> {
  const root = prefix === '' ? [] : [prefix];
  const walk: Walk = { issues: [], path: [...root], values: 0 };
  let copied: unknown;
  try {
    copied = copy(walk, input, '', 0, false);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const at = error.path.length > 0 ? error.path : root;
    walk.issues.push({ path: at.join('.'), message: error.message });
  }
  if (walk.issues.length > 0) return { ok: false, issues: walk.issues };
  // A copy the schema's check passes is what zod would output: zod parses the rest.
  if (schemaCheck(schema)?.(copied)) return { ok: true, data: copied as z.output<S> };
  const parsed = safeParse(schema, copied);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    path: issuePath(issue, prefix),
    message: describeIssue(issue),
  }));
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
