import type * as z from 'zod/v4/core';
import { globalConfig } from 'zod/v4/core';

/*
 * The answer check: whether a large answer already is what its schema outputs, as one
 * function generated from the schema. zod copies every object it parses: for a 100-product
 * catalog answer that copy costs 1.5 ms a call, 1.42-1.48x the time of raw fetch with a
 * timeout signal against 1.02-1.04x with this check (bench/wire-cost in the integration
 * package runs both). A value the check passes is used as JSON.parse made it; anything else
 * (a failure, a default to fill in) goes to zod, so results and errors stay zod's.
 *
 * It runs on every answer the client parses (`parseResponse` in http/response-body.ts: a
 * website search's answer cost 36 µs in zod, 1 µs checked), and only where zod would
 * generate code itself: under `z.config({ jitless: true })`, or where the runtime
 * refuses `new Function` (a CSP without 'unsafe-eval', edge workers, Cloudflare Workers),
 * zod parses. test/schema-check.fuzz.test.ts holds it equal to zod.
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
  _zod: { def: Definition };
}

/**
 * Definition keys whose meaning the compiler knows. Any other key (the `check` and `format`
 * of `z.int()`, a pattern, a key a later zod adds) may carry a rule it would miss: then zod
 * parses.
 */
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

const LEAVES: Record<string, Source> = {
  string: (v) => `typeof ${v} === "string"`,
  // As zod: NaN and the infinities are not numbers.
  number: (v) => `typeof ${v} === "number" && Number.isFinite(${v})`,
  boolean: (v) => `typeof ${v} === "boolean"`,
  null: (v) => `${v} === null`,
  unknown: () => 'true',
};

/** Runs generated source: `function (v) { …body; return true; }`, with its constants as `k`. */
function generated(body: string[], constants: unknown[]): Check {
  const source = ['return function (v) {', ...body, 'return true;', '};'].join('\n');
  return new Function('k', source)(constants) as Check;
}

/** A function of its own for a container: one read per field keeps each read's cache warm. */
function compiledFunction(build: (bind: Bind) => string[]): Check {
  const constants: unknown[] = [];
  const bind: Bind = (constant) => `k[${constants.push(constant) - 1}]`;
  return generated(build(bind), constants);
}

/** Compiles zod definitions into answer checks, each schema once. */
class AnswerCheckCompiler {
  readonly #compiled = new WeakMap<object, Source | null>();
  /** The function of each object and array compiled: a whole answer's check is one of them. */
  readonly #functions = new WeakMap<object, Check>();

  /** The check of `schema`, or undefined when it uses something left to zod. */
  checkOf(schema: z.$ZodType): Check | undefined {
    const source = this.#compile(schema as unknown as Schemaish);
    if (source === undefined) return undefined;
    return (
      this.#functions.get(schema._zod.def) ??
      compiledFunction((bind) => [`if (!(${source('v', bind)})) return false;`])
    );
  }

  #compile(schema: Schemaish): Source | undefined {
    const known = this.#compiled.get(schema);
    if (known !== undefined) return known ?? undefined;
    const def = schema?._zod?.def;
    const source = def ? this.#build(def) : undefined;
    this.#compiled.set(schema, source ?? null);
    return source;
  }

  #build(def: Definition): Source | undefined {
    if (Object.keys(def).some((key) => !KNOWN_KEYS.has(key))) return undefined;
    // A check (a length, a pattern, a refinement) is a rule zod applies: leave it to zod.
    if ((def.checks?.length ?? 0) > 0) return undefined;
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
      case 'literal':
        return includedIn(def.values ?? []);
      case 'enum':
        return this.#enum(def);
      default:
        return LEAVES[def.type];
    }
  }

  /**
   * A line per field, as zod generates its own parsers. A loose object keeps unknown keys
   * as they are; a strict one refuses them and a plain one strips them, so for those the
   * check passes only objects without keys but their own. An own `__proto__` member stays
   * as JSON.parse made it (zod would drop it), with the prototype untouched.
   */
  #object(def: Definition): Source | undefined {
    const catchall = def.catchall?._zod.def.type;
    if (!def.shape || (catchall !== undefined && catchall !== 'unknown' && catchall !== 'never')) {
      return undefined;
    }
    const keys = Object.keys(def.shape);
    const fields = Object.values(def.shape).map((schema) => this.#compile(schema));
    if (!fields.every((field) => field !== undefined)) return undefined;
    const check = compiledFunction((bind) => {
      const lines = ['if (typeof v !== "object" || v === null || Array.isArray(v)) return false;'];
      lines.push('let f;');
      keys.forEach((key, index) => {
        const source = (fields[index] as Source)('f', bind);
        if (source !== 'true') {
          lines.push(`f = v[${JSON.stringify(key)}]; if (!(${source})) return false;`);
        }
      });
      if (catchall !== 'unknown') {
        const declared: Record<string, true> = Object.create(null);
        for (const key of keys) declared[key] = true;
        lines.push(`for (const key in v) if (${bind(declared)}[key] !== true) return false;`);
      }
      return lines;
    });
    this.#functions.set(def, check);
    return (v, bind) => `${bind(check)}(${v})`;
  }

  /** An indexed loop, as zod's: a hole in a sparse array is checked as undefined. */
  #array(def: Definition): Source | undefined {
    const element = def.element && this.#compile(def.element);
    if (!element) return undefined;
    const check = compiledFunction((bind) => [
      'if (!Array.isArray(v)) return false;',
      'for (let i = 0; i < v.length; i++) {',
      `const f = v[i]; if (!(${element('f', bind)})) return false;`,
      '}',
    ]);
    this.#functions.set(def, check);
    return (v, bind) => `${bind(check)}(${v})`;
  }

  #union(def: Definition): Source | undefined {
    const options = (def.options ?? []).map((option) => this.#compile(option));
    if (options.length === 0 || !options.every((option) => option !== undefined)) {
      return undefined;
    }
    return (v, bind) => `(${options.map((option) => (option as Source)(v, bind)).join(' || ')})`;
  }

  #enum(def: Definition): Source | undefined {
    const values = Object.values(def.entries ?? {});
    // A numeric (native) enum has reverse-mapped names zod filters out: leave it to zod.
    if (values.some((value) => typeof value !== 'string')) return undefined;
    return includedIn(values);
  }

  #wrapper(def: Definition): Source | undefined {
    const inner = def.innerType && this.#compile(def.innerType);
    if (!inner) return undefined;
    if (def.type === 'optional') return (v, bind) => `(${v} === undefined || ${inner(v, bind)})`;
    if (def.type === 'nullable') return (v, bind) => `(${v} === null || ${inner(v, bind)})`;
    // A default to fill in means zod's output differs from the input: let zod do it.
    return (v, bind) => `(${v} !== undefined && ${inner(v, bind)})`;
  }
}

function includedIn(values: unknown[]): Source {
  return (v, bind) => `${bind(values)}.includes(${v})`;
}

/**
 * Whether `new Function` works here, probed once, as zod probes: not under jitless (a strict
 * CSP reports even a caught attempt), not in Cloudflare Workers. zod's own probe is not
 * reachable without bundling all of zod's utilities (its `util` namespace), so this repeats it.
 */
function codeGenerationAllowed(): boolean {
  if (globalConfig.jitless) return false;
  evalAllowed ??= probeCodeGeneration();
  return evalAllowed;
}

let evalAllowed: boolean | undefined;

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

let compiler: AnswerCheckCompiler | undefined;
const checks = /* @__PURE__ */ new WeakMap<object, Check | null>();

/**
 * The answer check of `schema`, or undefined where zod must parse: under
 * `z.config({ jitless: true })` (the switch that turns it off, read on every call), where
 * the runtime refuses `new Function`, or when the schema uses something the compiler does
 * not reproduce exactly (a check, a transform).
 */
export function answerCheck(schema: z.$ZodType): Check | undefined {
  if (!codeGenerationAllowed()) return undefined;
  const known = checks.get(schema);
  if (known !== undefined) return known ?? undefined;
  compiler ??= new AnswerCheckCompiler();
  const check = compiler.checkOf(schema);
  checks.set(schema, check ?? null);
  return check;
}
