import type * as z from 'zod/v4/core';
import { globalConfig } from 'zod/v4/core';

/*
 * The schema check: whether an answer (or a request's plain copy) already is what its schema
 * outputs, as one function generated from the schema, since zod copies every object it parses
 * (docs/ARCHITECTURE.md, "The answer check"). A value it passes is used as it is; anything else
 * (a failure, a default to fill in) goes to zod, so results and errors stay zod's.
 */

/** A generated check: true only when zod would succeed and return an equal value. */
export type Check = (value: unknown) => boolean;

/** The parts of a zod definition the compiler reads; any other key makes it leave to zod. */
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
  /** Set where zod lets the input leave it out: `'optional'`, or `'defaulted'` (it fills one in). */
  _zod: { def: Definition; optin?: string };
}

/** Any other key (`z.int()`'s `format`, a pattern, a later zod's) may carry a rule: zod parses. */
const KNOWN_KEYS = /* @__PURE__ */ new Set([
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

/** Makes a value readable by generated code (`k[i]`) and returns the source that reads it. */
type Bind = (constant: unknown) => string;

/** A compiled schema: a boolean expression on the value held in the variable `v`. */
type Source = (v: string, bind: Bind) => string;

/** A zod check's definition (`check`, `format`, `minimum`, `pattern`…): its values are bound. */
type CheckDefinition = Record<string, unknown>;

/**
 * The checks the compiler reproduces, as zod runs them, by kind (and format): any other leaves
 * the schema to zod. zod 4.6 counts a string's length in code points (a pair of surrogates is
 * one): fewer than twice the minimum in UTF-16 units are counted. An `overwrite` (`z.trim()`)
 * passes only a value it leaves as it is (Object.is: `Math.abs` makes -0 a 0).
 */
const CHECKS: Record<string, (def: CheckDefinition, v: string, bind: Bind) => string> = {
  min_length: (def, v) =>
    `${v}.length >= ${Number(def.minimum)} && (typeof ${v} !== "string" || ${v}.length >= ${2 * Number(def.minimum)} || [...${v}].length >= ${Number(def.minimum)})`,
  max_length: (def, v) => `${v}.length <= ${Number(def.maximum)}`,
  greater_than: (def, v, bind) => `${v} ${def.inclusive ? '>=' : '>'} ${bind(def.value)}`,
  less_than: (def, v, bind) => `${v} ${def.inclusive ? '<=' : '<'} ${bind(def.value)}`,
  'number_format safeint': (_def, v) => `Number.isSafeInteger(${v})`,
  'string_format regex': (def, v, bind) =>
    `(${bind(def.pattern)}.lastIndex = 0, ${bind(def.pattern)}.test(${v}))`,
  overwrite: (def, v, bind) => `Object.is(${bind(def.tx)}(${v}), ${v})`,
};

/** A schema's source, and the function of its own an object or array gets (a whole answer's check). */
interface Compiled {
  source: Source;
  /** Whether every value zod takes comes out unchanged (no stripped key, no default). */
  exact: boolean;
  check?: Check;
}

const LEAVES: Record<string, Source> = {
  string: (v) => `typeof ${v} === "string"`,
  // As zod: NaN and the infinities are not numbers.
  number: (v) => `typeof ${v} === "number" && Number.isFinite(${v})`,
  boolean: (v) => `typeof ${v} === "boolean"`,
  null: (v) => `${v} === null`,
  unknown: () => 'true',
};

/** Runs generated source: `function (v) { …lines; return true; }`, with its constants as `k`. */
function generate(lines: (bind: Bind) => string[]): Check {
  const constants: unknown[] = [];
  const bind: Bind = (constant) => `k[${constants.push(constant) - 1}]`;
  const source = ['return function (v) {', ...lines(bind), 'return true;', '};'].join('\n');
  return new Function('k', source)(constants) as Check;
}

/** Whether a compiled check passes `undefined`. */
const takesUndefined = (field: Compiled) =>
  generate((bind) => [`if (!(${field.source('v', bind)})) return false;`])(undefined);

/** A container gets a function of its own: one read per field keeps each read's cache warm. */
function ownFunction(lines: (bind: Bind) => string[], exact: boolean): Compiled {
  const check = generate(lines);
  return { source: (v, bind) => `${bind(check)}(${v})`, exact, check };
}

/** Each schema compiled once; null when it uses something left to zod. */
const compiled = /* @__PURE__ */ new WeakMap<object, Compiled | null>();

function compile(schema: Schemaish): Compiled | undefined {
  let known = compiled.get(schema);
  if (known === undefined) {
    compiled.set(schema, null); // a schema that refers to itself (a getter) is left to zod
    const def = schema?._zod?.def;
    known = (def && build(def)) ?? null;
    compiled.set(schema, known);
  }
  return known ?? undefined;
}

function build(def: Definition): Compiled | undefined {
  if (Object.keys(def).some((key) => !KNOWN_KEYS.has(key))) return undefined;
  const checks = (def.checks ?? []).map(
    (check) => (check as { _zod: { def: CheckDefinition } })._zod.def,
  );
  if (checks.length === 0) return shape(def);
  // A check of another kind (a refinement, a custom format with a function) is left to zod;
  // so is an overwrite of a list, which may change it in place and return it.
  const rules = checks.map((check) => {
    const kind = `${check.check}${check.format === undefined ? '' : ` ${check.format}`}`;
    const own = Object.hasOwn(CHECKS, kind) && check.fn === undefined;
    return own && !(kind === 'overwrite' && def.type === 'array') ? CHECKS[kind] : undefined;
  });
  const base = ['string', 'number', 'array'].includes(def.type) ? shape(def) : undefined;
  if (!base || rules.some((rule) => rule === undefined)) return undefined;
  // Not base's own `check` (it leaves the rules out). Not exact with an overwrite: zod succeeds,
  // changed, on what the rule fails (a union's earlier option).
  return {
    exact: base.exact && checks.every((check) => check.check !== 'overwrite'),
    source: (v, bind) =>
      `(${base.source(v, bind)} && ${rules.map((rule, i) => rule?.(checks[i] as CheckDefinition, v, bind)).join(' && ')})`,
  };
}

/** A schema's own shape, its checks aside. */
function shape(def: Definition): Compiled | undefined {
  switch (def.type) {
    case 'object':
      return object(def);
    case 'array':
      return array(def);
    case 'union':
      return union(def);
    case 'optional':
    case 'nullable':
    case 'default':
      return wrapper(def);
    case 'literal':
    case 'enum': {
      const values = def.values ?? Object.values(def.entries ?? {});
      // A numeric (native) enum has reverse-mapped names zod filters out: leave it to zod.
      if (def.type === 'enum' && values.some((value) => typeof value !== 'string'))
        return undefined;
      return { source: (v, bind) => `${bind(values)}.includes(${v})`, exact: true };
    }
    default: {
      const leaf = LEAVES[def.type];
      return leaf && { source: leaf, exact: true };
    }
  }
}

/**
 * A line per field, as zod generates its own parsers. A loose object keeps unknown keys as
 * they are; a strict one refuses them and a plain one strips them, so for those the check
 * passes only objects without keys but their own. An own `__proto__` member stays as
 * JSON.parse made it (zod would drop it), with the prototype untouched.
 */
function object(def: Definition): Compiled | undefined {
  const catchall = def.catchall?._zod.def.type;
  if (!def.shape || (catchall !== undefined && catchall !== 'unknown' && catchall !== 'never')) {
    return undefined;
  }
  const shape = def.shape;
  const keys = Object.keys(shape);
  const fields = Object.values(shape).map(compile);
  if (fields.some((field) => field === undefined)) return undefined;
  return ownFunction(
    (bind) => {
      const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;'];
      lines.push('let f;');
      keys.forEach((key, index) => {
        const field = fields[index] as Compiled;
        const [source, name] = [field.source('f', bind), JSON.stringify(key)];
        // zod refuses a missing key its schema does not let be left out, even one that takes
        // `undefined` (`z.unknown()`): only such a key's presence is checked.
        if (shape[key]?._zod.optin === undefined && takesUndefined(field)) {
          lines.push(`if (!(${name} in v)) return false;`);
        }
        if (source !== 'true') lines.push(`f = v[${name}]; if (!(${source})) return false;`);
      });
      if (catchall !== 'unknown') {
        const declared: Record<string, true> = Object.create(null);
        for (const key of keys) declared[key] = true;
        lines.push(`for (const key in v) if (${bind(declared)}[key] !== true) return false;`);
      }
      return lines;
    },
    catchall !== undefined && fields.every((field) => field?.exact),
  );
}

/** An indexed loop, as zod's: a hole in a sparse array is checked as undefined. */
function array(def: Definition): Compiled | undefined {
  const element = def.element && compile(def.element);
  if (!element) return undefined;
  return ownFunction(
    (bind) => [
      'if (!Array.isArray(v)) return false;',
      'for (let i = 0; i < v.length; i++) {',
      `const f = v[i]; if (!(${element.source('f', bind)})) return false;`,
      '}',
    ],
    element.exact,
  );
}

/**
 * zod returns the first option that succeeds: a later option may pass `v` only when every
 * earlier one that would succeed returns it unchanged (`exact`), so failing its check means
 * zod fails it too.
 */
function union(def: Definition): Compiled | undefined {
  const options = (def.options ?? []).map(compile);
  if (options.length === 0 || options.some((option) => option === undefined)) return undefined;
  const usable = options as Compiled[];
  const tried = usable.slice(0, usable.findIndex((option) => !option.exact) + 1 || undefined);
  return {
    source: (v, bind) => `(${tried.map((option) => option.source(v, bind)).join(' || ')})`,
    exact: tried.length === usable.length && tried.every((option) => option.exact),
  };
}

/** A default to fill in means zod's output differs from the input: zod does it. */
const WRAPPERS: Record<string, string> = {
  optional: '=== undefined ||',
  nullable: '=== null ||',
  default: '!== undefined &&',
};

function wrapper(def: Definition): Compiled | undefined {
  const inner = def.innerType && compile(def.innerType);
  // An optional around what fills in a default (maybe in a union) hands it `undefined`, as zod.
  const delegate = def.type === 'optional' && def.innerType?._zod.optin === 'defaulted';
  return (
    inner && {
      source: delegate
        ? inner.source
        : (v, bind) => `(${v} ${WRAPPERS[def.type]} ${inner.source(v, bind)})`,
      exact: def.type !== 'default' && inner.exact,
    }
  );
}

let evalAllowed: boolean | undefined;

/**
 * Whether `new Function` works here, as zod probes it (not in Cloudflare Workers; never tried
 * under jitless, since a strict CSP reports even a caught attempt). zod's own probe is not
 * reachable without bundling its whole `util` namespace, so this repeats it.
 */
function probeCodeGeneration(): boolean {
  const agent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  if (typeof agent === 'string' && agent.includes('Cloudflare')) return false;
  try {
    new Function('');
    return true;
  } catch {
    return false;
  }
}

/**
 * The check of `schema` (an answer's, or a request's copy), or undefined where zod must parse: under `z.config({ jitless:
 * true })` (read on every call), where `new Function` is refused, or when the schema uses
 * something the compiler does not reproduce exactly (a check, a transform).
 */
export function schemaCheck(schema: z.$ZodType): Check | undefined {
  if (globalConfig.jitless) return undefined;
  evalAllowed ??= probeCodeGeneration();
  if (!evalAllowed) return undefined;
  const schemaCheck = compile(schema as unknown as Schemaish);
  if (schemaCheck === undefined) return undefined;
  schemaCheck.check ??= generate((bind) => [
    `if (!(${schemaCheck.source('v', bind)})) return false;`,
  ]);
  return schemaCheck.check;
}
