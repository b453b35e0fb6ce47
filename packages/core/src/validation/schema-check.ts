import type { z } from 'zod/v4';
import { globalConfig, util } from 'zod/v4/core';
import { isRecord } from '../is-record.js';
import { checkRules, type Rule, type Source, WELL_FORMED } from './check-rules.js';

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

/**
 * A compiled schema: its check, the kind that lets loops check it inline, and the source
 * that lets generated code check it inline (leaves and their wrappers; containers are
 * called).
 */
interface Node {
  kind: number;
  check: Check;
  source?: Source;
}

const KIND_SOURCE: Record<number, Source> = {
  [ANY]: () => 'true',
  [STRING]: (v) => `typeof ${v} === "string"`,
  [NUMBER]: (v) => `typeof ${v} === "number" && Number.isFinite(${v})`,
  [BOOLEAN]: (v) => `typeof ${v} === "boolean"`,
  [RECORD]: (v) => `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`,
};

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

/** A leaf of `kind` that must also pass `rules`, in order. */
function leaf(kind: number, rules: readonly Rule[] = []): Node {
  const base = KIND_SOURCE[kind] as Source;
  if (rules.length === 0)
    return { kind, check: (value) => passes(kind, never, value), source: base };
  return {
    kind: OTHER,
    check: (value) => {
      if (!passes(kind, never, value)) return false;
      for (const rule of rules) if (!rule.test(value)) return false;
      return true;
    },
    source: (v, bind) =>
      [base, ...rules.map((rule) => rule.source)].map((part) => part(v, bind)).join(' && '),
  };
}

function other(check: Check, source?: Source): Node {
  return { kind: OTHER, check, source };
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

/** The array check as a loop over the items (where code cannot be generated). */
function arrayLoop({ kind, check }: Node): Check {
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let index = 0; index < value.length; index++) {
      if (!passes(kind, check, value[index])) return false;
    }
    return true;
  };
}

/** `check`, and no own keys but `keys` (a strict object refuses others, a plain one drops them). */
function withoutOtherKeys(keys: string[], check: Check): Check {
  const declared = new Set(keys);
  return (value) => check(value) && Object.keys(value as object).every((key) => declared.has(key));
}

/** Binds constants for generated code: `bind(x)` is the source that reads `x`. */
function constantsOf(): { constants: unknown[]; bind: (constant: unknown) => string } {
  const constants: unknown[] = [];
  return { constants, bind: (constant) => `k[${constants.push(constant) - 1}]` };
}

/** The source that is true when the value in `f` passes `node`: inline, or a call. */
function passingSource(node: Node, bind: (constant: unknown) => string): string {
  return node.source ? node.source('f', bind) : `${bind(node.check)}(f)`;
}

/** The source that reads field `key` into `f` and returns false when it does not pass. */
function fieldSource(key: string, field: Node, bind: (constant: unknown) => string): string {
  if ((field.kind & BASE) === ANY) return '';
  return `f = v[${JSON.stringify(key)}]; if (!(${passingSource(field, bind)})) return false;`;
}

/** A generated check: `function (v) { …body; return true; }`, reading constants as `k`. */
function compiledCheck(body: string[], constants: unknown[]): Check {
  const source = ['return function (v) {', ...body, 'return true;', '};'].join('\n');
  return new Function('k', source)(constants) as Check;
}

/** The array check as generated code: the item's check inline when it is a leaf. */
function generatedArrayCheck(element: Node): Check {
  const { constants, bind } = constantsOf();
  // An indexed loop, as zod's: a hole in a sparse array is checked as undefined.
  const passing = passingSource(element, bind);
  return compiledCheck(
    [
      'if (!Array.isArray(v)) return false;',
      `for (let i = 0; i < v.length; i++) { const f = v[i]; if (!(${passing})) return false; }`,
    ],
    constants,
  );
}

/**
 * The object check as generated code, a line per field, as zod does for its own parsers
 * where the runtime allows it: each field read then has its own inline cache, where the
 * loop's one read sees every shape of every answer, and a leaf's rules are inline instead
 * of a call each. About six times faster on a 100-product answer. Only property names (as
 * JSON string literals) and numbers come from the schema; anything else is bound. A
 * `closed` object passes only without keys but its own.
 */
function generatedObjectCheck(keys: string[], fields: Node[], closed: boolean): Check {
  const { constants, bind } = constantsOf();
  const lines = keys.map((key, index) => fieldSource(key, fields[index] as Node, bind));
  if (closed) {
    const declared: Record<string, true> = Object.create(null);
    for (const key of keys) declared[key] = true;
    lines.push(`for (const key in v) if (${bind(declared)}[key] !== true) return false;`);
  }
  return compiledCheck(
    [
      'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;',
      'let f;',
      ...lines,
    ],
    constants,
  );
}

/** A string or number leaf: its kind, plus its checks, in order. */
function checkedLeaf(kind: number, def: Definition, extra: readonly Rule[]): Node | undefined {
  const rules = checkRules(def.checks);
  return rules && leaf(kind, [...rules, ...extra]);
}

function includedIn(values: unknown[]): Node {
  return other(
    (value) => values.includes(value),
    (v, bind) => `${bind(values)}.includes(${v})`,
  );
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

/** How a compiler checks. */
export interface CheckOptions {
  /** Object checks as generated code (needs `new Function`), else loops. */
  generateCode: boolean;
  /**
   * For requests: every string must also be well-formed Unicode (no lone surrogate), and
   * values the schema leaves open (`unknown`, open objects) must pass this deep check.
   */
  wellFormedDeep?: Check;
}

/** Compiles zod definitions into checks, each schema once. */
export class SchemaCheckCompiler {
  readonly #compiled = new WeakMap<object, Node | null>();
  readonly #generateCode: boolean;
  /** The rules requests add: to strings, and to values left open. */
  readonly #stringRules: readonly Rule[];
  readonly #openRules: readonly Rule[];

  constructor({ generateCode, wellFormedDeep }: CheckOptions) {
    this.#generateCode = generateCode;
    this.#stringRules = wellFormedDeep ? [WELL_FORMED] : [];
    this.#openRules = wellFormedDeep
      ? [{ test: wellFormedDeep, source: (v, bind) => `${bind(wellFormedDeep)}(${v})` }]
      : [];
  }

  /** The check of `schema`, or undefined when zod must parse it (see {@link schemaCheck}). */
  checkOf(schema: z.ZodType): Check | undefined {
    // The known schema first, in this frame: it is looked up before every request and
    // after every answer.
    const known = this.#compiled.get(schema);
    if (known !== undefined) return known?.check;
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
        return this.#leaf(def);
    }
  }

  #leaf(def: Definition): Node | undefined {
    switch (def.type) {
      case 'string':
        return checkedLeaf(STRING, def, this.#stringRules);
      case 'number':
        return checkedLeaf(NUMBER, def, []);
      case 'null':
        return other(
          (value) => value === null,
          (v) => `${v} === null`,
        );
      case 'boolean':
        return leaf(BOOLEAN);
      case 'unknown':
        return leaf(ANY, this.#openRules);
      case 'literal':
        return includedIn(def.values ?? []);
      case 'enum': {
        const values = Object.values(def.entries ?? {});
        // A numeric (native) enum has reverse-mapped names zod filters out: leave it to zod.
        if (values.some((value) => typeof value !== 'string')) return undefined;
        return includedIn(values);
      }
      default:
        return undefined;
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
    if (keys.length === 0 && open) return leaf(RECORD, this.#openRules);
    const check = this.#generateCode
      ? generatedObjectCheck(keys, fields, !open)
      : objectLoop(keys, fields);
    const closed = open || this.#generateCode ? check : withoutOtherKeys(keys, check);
    // Requests: what an open object holds beyond its fields is walked as well.
    const [deep] = open ? this.#openRules : [];
    return other(deep ? (value) => closed(value) && deep.test(value) : closed);
  }

  #array(def: Definition): Node | undefined {
    const element = def.element && this.#compile(def.element);
    if (!element) return undefined;
    return other(this.#generateCode ? generatedArrayCheck(element) : arrayLoop(element));
  }

  #union(def: Definition): Node | undefined {
    const options = (def.options ?? []).map((option) => this.#compile(option));
    if (options.length === 0 || !options.every(isNode)) return undefined;
    return other((value) => options.some((option) => passes(option.kind, option.check, value)));
  }

  #wrapper(def: Definition): Node | undefined {
    const inner = def.innerType && this.#compile(def.innerType);
    if (!inner) return undefined;
    const { check, source } = inner;
    if (def.type === 'optional') {
      return {
        kind: inner.kind | OPTIONAL,
        check: (value) => value === undefined || check(value),
        source: source && ((v, bind) => `(${v} === undefined || ${source(v, bind)})`),
      };
    }
    if (def.type === 'nullable') {
      return {
        kind: inner.kind | NULLABLE,
        check: (value) => value === null || check(value),
        source: source && ((v, bind) => `(${v} === null || ${source(v, bind)})`),
      };
    }
    // A default to fill in means zod's output differs from the input: let zod do it.
    return other(
      (value) => value !== undefined && check(value),
      source && ((v, bind) => `(${v} !== undefined && ${source(v, bind)})`),
    );
  }
}

/** Whether checks may be generated code: when zod generates its own. */
export function mayGenerateCode(): boolean {
  return !globalConfig.jitless && util.allowsEval.value;
}

let shared: SchemaCheckCompiler | undefined;

/**
 * The no-copy check of `schema`, or undefined when the schema uses something it does not
 * reproduce exactly (refinements, transforms, defaults to fill in); then callers
 * parse with zod. Code is generated when zod generates its own (not under
 * `z.config({ jitless: true })`, nor where the runtime forbids `new Function`).
 */
export function schemaCheck(schema: z.ZodType): Check | undefined {
  shared ??= new SchemaCheckCompiler({ generateCode: mayGenerateCode() });
  return shared.checkOf(schema);
}
