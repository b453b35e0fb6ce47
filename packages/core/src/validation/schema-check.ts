import type { z } from 'zod/v4';
import { globalConfig, util } from 'zod/v4/core';
import { isRecord } from '../is-record.js';
import { checkPredicates } from './check-rules.js';

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

// Leaf kinds that containers check inline, without a call: most fields of an answer are
// plain strings, numbers and open objects. Flags widen a kind to accept undefined or null.
const OTHER = 0; // call the node's check
const ANY = 1;
const STRING = 2;
const NUMBER = 3;
const BOOLEAN = 4;
const RECORD = 5; // an open object without declared fields
const BASE = 7;
const OPTIONAL = 8;
const NULLABLE = 16;

/** A compiled schema: its check, and the kind that lets containers check it inline. */
interface Node {
  kind: number;
  check: Check;
}

/** Whether `value` passes a node given as its kind and check. */
function passes(kind: number, check: Check, value: unknown): boolean {
  if (value === undefined && (kind & OPTIONAL) !== 0) return true;
  if (value === null && (kind & NULLABLE) !== 0) return true;
  switch (kind & BASE) {
    case ANY:
      return true;
    case STRING:
      return typeof value === 'string';
    case NUMBER:
      return typeof value === 'number' && Number.isFinite(value);
    case BOOLEAN:
      return typeof value === 'boolean';
    case RECORD:
      return isRecord(value);
    default:
      return check(value);
  }
}

const never: Check = () => false;

function isNode(node: Node | undefined): node is Node {
  return node !== undefined;
}

function leaf(kind: number): Node {
  return { kind, check: (value) => passes(kind, never, value) };
}

function other(check: Check): Node {
  return { kind: OTHER, check };
}

/** The object check as a loop over the declared fields (where code cannot be generated). */
function objectLoop(keys: string[], fields: Node[]): Check {
  // Indexed loops: this runs for every object of every answer.
  return (value) => {
    if (!isRecord(value)) return false;
    for (let index = 0; index < keys.length; index++) {
      const field = fields[index] as Node;
      if (!passes(field.kind, field.check, value[keys[index] as string])) return false;
    }
    return true;
  };
}

/** `check`, and no own keys but `keys` (a strict object refuses others, a plain one drops them). */
function withoutOtherKeys(keys: string[], check: Check): Check {
  const declared = new Set(keys);
  return (value) => check(value) && Object.keys(value as object).every((key) => declared.has(key));
}

const WRONG_LEAF: Record<number, string> = {
  [STRING]: 'typeof f !== "string"',
  [NUMBER]: '!(typeof f === "number" && Number.isFinite(f))',
  [BOOLEAN]: 'typeof f !== "boolean"',
  [RECORD]: '(typeof f !== "object" || f === null || Array.isArray(f))',
};

/** The source that reads field `key` into `f` and returns false when it does not pass. */
function fieldSource(key: string, field: Node, index: number): string {
  if ((field.kind & BASE) === ANY) return '';
  const allowed = [
    (field.kind & OPTIONAL) !== 0 ? 'f !== undefined && ' : '',
    (field.kind & NULLABLE) !== 0 ? 'f !== null && ' : '',
  ].join('');
  const wrong = WRONG_LEAF[field.kind & BASE] ?? `!c[${index}](f)`;
  return `f = v[${JSON.stringify(key)}]; if (${allowed}${wrong}) return false;`;
}

/**
 * The object check as generated code, a line per field, as zod does for its own parsers
 * where the runtime allows it: each field read then has its own inline cache, where the
 * loop's one read sees every shape of every answer. About six times faster on a
 * 100-product answer. Only property names, as JSON string literals, come from the schema.
 */
function generatedObjectCheck(keys: string[], fields: Node[]): Check {
  const source = [
    'return function (v) {',
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;',
    'let f;',
    ...keys.map((key, index) => fieldSource(key, fields[index] as Node, index)),
    'return true;',
    '};',
  ].join('\n');
  const checks = fields.map((field) => field.check);
  return new Function('c', source)(checks) as Check;
}

/** A string or number leaf: its kind alone, or that plus its checks, in order. */
function checkedLeaf(kind: number, def: Definition): Node | undefined {
  const predicates = checkPredicates(def.checks);
  if (!predicates) return undefined;
  if (predicates.length === 0) return leaf(kind);
  return other((value) => passes(kind, never, value) && predicates.every((test) => test(value)));
}

function leafNode(def: Definition): Node | undefined {
  if (def.type === 'string') return checkedLeaf(STRING, def);
  if (def.type === 'number') return checkedLeaf(NUMBER, def);
  switch (def.type) {
    case 'null':
      return other((value) => value === null);
    case 'boolean':
      return leaf(BOOLEAN);
    case 'unknown':
      return leaf(ANY);
    case 'literal': {
      const values = def.values ?? [];
      return other((value) => values.includes(value));
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      // A numeric (native) enum has reverse-mapped names zod filters out: leave it to zod.
      if (values.some((value) => typeof value !== 'string')) return undefined;
      return other((value) => values.includes(value));
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

/** Compiles zod definitions into checks, each schema once. */
export class SchemaCheckCompiler {
  readonly #compiled = new WeakMap<object, Node | null>();

  /** `generateCode`: object checks as generated code (needs `new Function`), else loops. */
  constructor(readonly generateCode: boolean) {}

  /** The check of `schema`, or undefined when zod must parse it (see {@link schemaCheck}). */
  checkOf(schema: z.ZodType): Check | undefined {
    return this.#compile(schema as unknown as Schemaish)?.check;
  }

  #compile(schema: Schemaish): Node | undefined {
    const cached = this.#compiled.get(schema);
    if (cached !== undefined) return cached ?? undefined;
    const def = schema?._zod?.def;
    const result = def ? this.#build(def) : undefined;
    this.#compiled.set(schema, result ?? null);
    return result;
  }

  #build(def: Definition): Node | undefined {
    if (Object.keys(def).some((key) => !KNOWN_KEYS.has(key))) return undefined;
    // Checks on anything but a string or number (a refinement, array sizes) are zod's.
    const leafWithChecks = def.type === 'string' || def.type === 'number';
    if (!leafWithChecks && (def.checks?.length ?? 0) > 0) return undefined;
    switch (def.type) {
      case 'object':
        return this.#object(def);
      case 'array':
        return this.#array(def);
      case 'union':
        return this.#union(def);
      case 'optional':
      case 'nullable':
      case 'default':
        return this.#wrapper(def);
      default:
        return leafNode(def);
    }
  }

  #object(def: Definition): Node | undefined {
    // A loose object keeps unknown keys as they are; a strict one refuses them and a plain
    // one strips them, so for those the check passes only objects without unknown keys.
    const catchall = def.catchall?._zod.def.type;
    if (!def.shape || (catchall !== undefined && catchall !== 'unknown' && catchall !== 'never')) {
      return undefined;
    }
    const keys = Object.keys(def.shape);
    const fields = Object.values(def.shape).map((schema) => this.#compile(schema));
    if (!fields.every(isNode)) return undefined;
    const open = catchall === 'unknown';
    if (keys.length === 0 && open) return leaf(RECORD);
    const check = this.generateCode ? generatedObjectCheck(keys, fields) : objectLoop(keys, fields);
    return other(open ? check : withoutOtherKeys(keys, check));
  }

  #array(def: Definition): Node | undefined {
    const element = def.element && this.#compile(def.element);
    if (!element) return undefined;
    const { kind, check } = element;
    return other((value) => {
      if (!Array.isArray(value)) return false;
      for (let index = 0; index < value.length; index++) {
        if (!passes(kind, check, value[index])) return false;
      }
      return true;
    });
  }

  #union(def: Definition): Node | undefined {
    const options = (def.options ?? []).map((option) => this.#compile(option));
    if (options.length === 0 || !options.every(isNode)) return undefined;
    return other((value) => options.some((option) => passes(option.kind, option.check, value)));
  }

  #wrapper(def: Definition): Node | undefined {
    const inner = def.innerType && this.#compile(def.innerType);
    if (!inner) return undefined;
    const { check } = inner;
    if (def.type === 'optional') {
      return { kind: inner.kind | OPTIONAL, check: (value) => value === undefined || check(value) };
    }
    if (def.type === 'nullable') {
      return { kind: inner.kind | NULLABLE, check: (value) => value === null || check(value) };
    }
    // A default to fill in means zod's output differs from the input: let zod do it.
    return other((value) => value !== undefined && check(value));
  }
}

let shared: SchemaCheckCompiler | undefined;

/**
 * The no-copy check of `schema`, or undefined when the schema uses something it does not
 * reproduce exactly (refinements, transforms, strict or stripping objects); then callers
 * parse with zod. Code is generated when zod generates its own (not under
 * `z.config({ jitless: true })`, nor where the runtime forbids `new Function`).
 */
export function schemaCheck(schema: z.ZodType): Check | undefined {
  shared ??= new SchemaCheckCompiler(!globalConfig.jitless && util.allowsEval.value);
  return shared.checkOf(schema);
}
