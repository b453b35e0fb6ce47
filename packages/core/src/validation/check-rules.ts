/**
 * The rules of zod checks (`.min()`, `.max()`, `.int()`, `.trim()`, `.regex()`) as
 * predicates and as generated source, for the no-copy check (`schema-check.ts`): only
 * checks whose outcome they reproduce exactly; any other makes that check leave the value
 * to zod. Also the rule requests add to every string: well-formed Unicode.
 */

/** A predicate on a value already known to be of the leaf's type. */
type Check = (value: unknown) => boolean;

/**
 * Generated code: a boolean expression on the value held in the variable named `v`.
 * `bind` makes a value (a function, a pattern) readable by the code and returns the source
 * that reads it; only numbers the schema declares are written into the code itself.
 */
export type Source = (v: string, bind: (constant: unknown) => string) => string;

/** One rule of a leaf, as a predicate (for loops) and as source (for generated code). */
export interface Rule {
  test: Check;
  source: Source;
}

/** A number as source: its literal when finite, else a bound constant. */
function numberSource(value: number, bind: (constant: unknown) => string): string {
  return Number.isFinite(value) ? String(value) : bind(value);
}

type Operator = '>=' | '>' | '<=' | '<' | '===';

const COMPARE: Record<Operator, (a: number, b: number) => boolean> = {
  '>=': (a, b) => a >= b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '<': (a, b) => a < b,
  '===': (a, b) => a === b,
};

/** A comparison of the value (or its `.length`) with a number the schema declares. */
function comparison(operator: Operator, bound: number, length: boolean): Rule {
  const holds = COMPARE[operator];
  return {
    test: length
      ? (item) => holds((item as string).length, bound)
      : (item) => holds(item as number, bound),
    source: (v, bind) => `${length ? `${v}.length` : v} ${operator} ${numberSource(bound, bind)}`,
  };
}

/** What a zod check definition (`.min()`, `.int()`, `.trim()`, `.regex()`) holds. */
interface CheckDefinition {
  check?: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  tx?: (value: unknown) => unknown;
}

/** Keys of a check definition that cannot change whether a value passes. */
const PASSIVE_CHECK_KEYS = new Set(['check', 'abort', 'error', 'when', 'type']);

/** Keys of a check definition that carry its rule, read by the predicates below. */
const RULE_KEYS = new Set([
  'minimum',
  'maximum',
  'length',
  'value',
  'inclusive',
  'format',
  'pattern',
  'tx',
]);

function lengthRule(def: CheckDefinition): Rule | undefined {
  const { minimum = 0, maximum = 0, length = 0 } = def;
  switch (def.check) {
    case 'min_length':
      return comparison('>=', minimum, true);
    case 'max_length':
      return comparison('<=', maximum, true);
    case 'length_equals':
      return comparison('===', length, true);
    default:
      return undefined;
  }
}

function boundRule(def: CheckDefinition): Rule | undefined {
  const { value = 0, inclusive } = def;
  switch (def.check) {
    case 'greater_than':
      return comparison(inclusive ? '>=' : '>', value, false);
    case 'less_than':
      return comparison(inclusive ? '<=' : '<', value, false);
    case 'number_format':
      return def.format === 'safeint'
        ? {
            test: (item) => Number.isSafeInteger(item),
            source: (v) => `Number.isSafeInteger(${v})`,
          }
        : undefined;
    default:
      return undefined;
  }
}

function formatRule(def: CheckDefinition): Rule | undefined {
  const { pattern, tx } = def;
  if (def.check === 'string_format' && def.format === 'regex' && pattern instanceof RegExp) {
    return {
      test: (item) => {
        // As zod does: a global or sticky pattern must not carry state between values.
        pattern.lastIndex = 0;
        return pattern.test(item as string);
      },
      source: (v, bind) => {
        const read = bind(pattern);
        return `(${read}.lastIndex = 0, ${read}.test(${v}))`;
      },
    };
  }
  // `.trim()` and its kind: a value the overwrite leaves unchanged is returned as is.
  if (def.check === 'overwrite' && typeof tx === 'function') {
    return { test: (item) => tx(item) === item, source: (v, bind) => `${bind(tx)}(${v}) === ${v}` };
  }
  return undefined;
}

/** The rules of a leaf's checks, or undefined when one is not reproduced exactly. */
export function checkRules(checks: readonly unknown[] = []): Rule[] | undefined {
  const rules: Rule[] = [];
  for (const check of checks) {
    const def = (check as { _zod?: { def?: CheckDefinition } })._zod?.def;
    if (!def) return undefined;
    const keys = Object.keys(def);
    if (keys.some((key) => !PASSIVE_CHECK_KEYS.has(key) && !RULE_KEYS.has(key))) return undefined;
    const rule = lengthRule(def) ?? boundRule(def) ?? formatRule(def);
    if (!rule) return undefined;
    rules.push(rule);
  }
  return rules;
}

// With the `u` flag a surrogate pair is one code point, so this matches only a lone one.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

// ES2024's builtin where the runtime has it (Node 20, current browsers and edge runtimes):
// a plain scan, cheaper than running the pattern on every string of every request.
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean })
  .isWellFormed;

/** True when `text` holds a lone surrogate: not well-formed Unicode, so not sendable as is. */
export function hasLoneSurrogate(text: string): boolean {
  return isWellFormed === undefined ? LONE_SURROGATE.test(text) : !isWellFormed.call(text);
}

/** A string is well-formed Unicode (no lone surrogate): requests need it to be sendable. */
export const WELL_FORMED: Rule = {
  test: (item) => !hasLoneSurrogate(item as string),
  source:
    isWellFormed === undefined
      ? (v, bind) => `!${bind(hasLoneSurrogate)}(${v})`
      : (v) => `${v}.isWellFormed()`,
};
