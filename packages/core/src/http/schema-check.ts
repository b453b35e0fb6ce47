import type { z } from 'zod/v4';
import { isRecord } from '../is-record.js';

/**
 * A check that a value already is what a schema would output: true only when parsing would
 * succeed and return an equal value (no default to fill, no transform). Then the parsed
 * JSON is used as is, instead of zod's deep copy, which for a 100-product answer cost about
 * as much as JSON.parse itself. Anything else (a failure, a default to apply) goes through
 * zod, so results and error messages stay zod's.
 */
type Check = (value: unknown) => boolean;

/** The parts of a zod definition the compiler reads; everything else makes it bail out. */
interface Definition {
  type: string;
  checks?: unknown[];
  shape?: Record<string, Schemaish>;
  catchall?: Schemaish;
  element?: Schemaish;
  options?: Schemaish[];
  innerType?: Schemaish;
  values?: unknown[];
  entries?: Record<string, unknown>;
}

interface Schemaish {
  _zod: { def: Definition };
}

const compiled = new WeakMap<object, Check | null>();

function objectCheck(def: Definition): Check | undefined {
  // Only loose objects keep unknown keys as they are; a plain or strict object would strip
  // or refuse them, which a no-copy check cannot reproduce.
  if (def.catchall?._zod.def.type !== 'unknown' || !def.shape) return undefined;
  const keys: string[] = [];
  const checks: Check[] = [];
  for (const [key, schema] of Object.entries(def.shape)) {
    const check = compile(schema);
    if (!check) return undefined;
    keys.push(key);
    checks.push(check);
  }
  // Indexed loops over parallel arrays: this runs for every object of every answer, and
  // destructuring iteration cost a visible share of a small call.
  return (value) => {
    if (!isRecord(value)) return false;
    for (let index = 0; index < keys.length; index++) {
      if (!(checks[index] as Check)(value[keys[index] as string])) return false;
    }
    return true;
  };
}

function arrayCheck(def: Definition): Check | undefined {
  const element = def.element && compile(def.element);
  if (!element || (def.checks?.length ?? 0) > 0) return undefined;
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let index = 0; index < value.length; index++) {
      if (!element(value[index])) return false;
    }
    return true;
  };
}

function unionCheck(def: Definition): Check | undefined {
  const options = (def.options ?? []).map(compile);
  if (options.length === 0 || options.some((option) => !option)) return undefined;
  const checks = options as Check[];
  return (value) => checks.some((check) => check(value));
}

function wrapperCheck(def: Definition): Check | undefined {
  const inner = def.innerType && compile(def.innerType);
  if (!inner) return undefined;
  if (def.type === 'optional') return (value) => value === undefined || inner(value);
  if (def.type === 'nullable') return (value) => value === null || inner(value);
  // A default to fill in means zod's output differs from the input: let zod do it.
  return (value) => value !== undefined && inner(value);
}

/** The minimum of a string's only check when it is `min_length`; undefined for anything else. */
function minLength(def: Definition): number | undefined {
  if (def.checks?.length !== 1) return undefined;
  const check = (def.checks[0] as { _zod?: { def?: { check?: string; minimum?: unknown } } })._zod
    ?.def;
  return check?.check === 'min_length' && typeof check.minimum === 'number'
    ? check.minimum
    : undefined;
}

function stringCheck(def: Definition): Check | undefined {
  if ((def.checks?.length ?? 0) === 0) return (value) => typeof value === 'string';
  const minimum = minLength(def);
  if (minimum === undefined) return undefined;
  return (value) => typeof value === 'string' && value.length >= minimum;
}

function leafCheck(def: Definition): Check | undefined {
  if (def.type === 'string') return stringCheck(def);
  // Other checks (an integer format, bounds, refinements) are left to zod.
  if ((def.checks?.length ?? 0) > 0) return undefined;
  switch (def.type) {
    case 'null':
      return (value) => value === null;
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'unknown':
      return () => true;
    case 'literal': {
      const values = def.values ?? [];
      return (value) => values.includes(value);
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      // A numeric (native) enum has reverse-mapped names zod filters out: leave it to zod.
      if (values.some((value) => typeof value !== 'string')) return undefined;
      return (value) => values.includes(value);
    }
    default:
      return undefined;
  }
}

/**
 * Definition keys whose meaning the compiler knows. Any other key (`check` and `format` on
 * `z.int()` or `z.email()`, a pattern) carries a rule it would miss: then zod parses.
 */
const KNOWN_KEYS = new Set([
  'type',
  'checks',
  'shape',
  'catchall',
  'element',
  'options',
  'innerType',
  'values',
  'entries',
  'defaultValue',
]);

function build(def: Definition): Check | undefined {
  if (Object.keys(def).some((key) => !KNOWN_KEYS.has(key))) return undefined;
  switch (def.type) {
    case 'object':
      return objectCheck(def);
    case 'array':
      return arrayCheck(def);
    case 'union':
      return unionCheck(def);
    case 'optional':
    case 'nullable':
    case 'default':
      return wrapperCheck(def);
    default:
      return leafCheck(def);
  }
}

function compile(schema: Schemaish): Check | undefined {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  const def = schema?._zod?.def;
  const check = def ? build(def) : undefined;
  compiled.set(schema, check ?? null);
  return check;
}

/**
 * The no-copy check of `schema`, or undefined when the schema uses something it does not
 * reproduce exactly (refinements, transforms, strict or stripping objects); then callers
 * parse with zod.
 */
export function schemaCheck(schema: z.ZodType): Check | undefined {
  return compile(schema as unknown as Schemaish);
}
