/**
 * The rules of zod checks (`.min()`, `.max()`, `.int()`, `.trim()`, `.regex()`) as plain
 * predicates, for the no-copy check (`schema-check.ts`): only checks whose outcome they
 * reproduce exactly; any other makes that check leave the value to zod.
 */

/** A predicate on a value already known to be of the leaf's type. */
type Check = (value: unknown) => boolean;

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

function lengthPredicate(def: CheckDefinition): Check | undefined {
  const { minimum = 0, maximum = 0, length } = def;
  switch (def.check) {
    case 'min_length':
      return (item) => (item as string).length >= minimum;
    case 'max_length':
      return (item) => (item as string).length <= maximum;
    case 'length_equals':
      return (item) => (item as string).length === length;
    default:
      return undefined;
  }
}

function boundPredicate(def: CheckDefinition): Check | undefined {
  const { value = 0, inclusive } = def;
  switch (def.check) {
    case 'greater_than':
      return inclusive ? (item) => (item as number) >= value : (item) => (item as number) > value;
    case 'less_than':
      return inclusive ? (item) => (item as number) <= value : (item) => (item as number) < value;
    case 'number_format':
      return def.format === 'safeint' ? (item) => Number.isSafeInteger(item) : undefined;
    default:
      return undefined;
  }
}

function formatPredicate(def: CheckDefinition): Check | undefined {
  const { pattern, tx } = def;
  if (def.check === 'string_format' && def.format === 'regex' && pattern instanceof RegExp) {
    return (item) => {
      // As zod does: a global or sticky pattern must not carry state between values.
      pattern.lastIndex = 0;
      return pattern.test(item as string);
    };
  }
  // `.trim()` and its kind: a value the overwrite leaves unchanged is returned as is.
  if (def.check === 'overwrite' && typeof tx === 'function') return (item) => tx(item) === item;
  return undefined;
}

/** The predicates of a leaf's checks, or undefined when one is not reproduced exactly. */
export function checkPredicates(checks: readonly unknown[] = []): Check[] | undefined {
  const predicates: Check[] = [];
  for (const check of checks) {
    const rule = (check as { _zod?: { def?: CheckDefinition } })._zod?.def;
    if (!rule) return undefined;
    const keys = Object.keys(rule);
    if (keys.some((key) => !PASSIVE_CHECK_KEYS.has(key) && !RULE_KEYS.has(key))) return undefined;
    const predicate = lengthPredicate(rule) ?? boundPredicate(rule) ?? formatPredicate(rule);
    if (!predicate) return undefined;
    predicates.push(predicate);
  }
  return predicates;
}
