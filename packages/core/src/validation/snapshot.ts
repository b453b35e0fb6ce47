/*
 * One plain JSON copy of a request, taken before anything checks it. Every getter, Proxy
 * trap and `toJSON` of the caller's value runs exactly once, here; the checks and the wire
 * then see only the copy, so nothing can answer one way to the check and another way to
 * `JSON.stringify` (a check-then-send race). The copy is bounded in depth and in size, and
 * refuses what JSON cannot carry instead of letting `JSON.stringify` change it.
 */
import type { RequestIssue } from '../errors/catalog-error.js';
import { hasLoneSurrogate, LONE_SURROGATE_MESSAGE } from './text.js';

/** Deepest nesting a request may have: deeper is refused (it is also how a cycle ends). */
const REQUEST_MAX_DEPTH = 256;

/** Most values (strings, numbers, objects, items...) one request may hold. */
const REQUEST_MAX_VALUES = 1_000_000;

const TOO_DEEP = 'nested too deeply or circular (more than 256 levels)';
const TOO_LARGE = 'too large (more than 1000000 values)';

/** A field name as a path shows it: a lone surrogate as `\uD800` text, so messages stay well-formed. */
function shownKey(key: string): string {
  if (!hasLoneSurrogate(key)) return key;
  return key.replace(
    /[\uD800-\uDFFF]/gu,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The outcome of {@link snapshotRequest}: the copy, and why parts of it were refused. */
export interface Snapshot {
  readonly value: unknown;
  readonly issues: RequestIssue[];
  /** True when the input was too deep or too large: the copy is partial. */
  readonly truncated: boolean;
}

/** Ends the copy: the input is too deep or too large. */
class Truncated {
  constructor(readonly issue: RequestIssue) {}
}

/** Stores `value` under `key`, as an own data member even when `key` is `__proto__`. */
function put(holder: Record<string, unknown> | unknown[], key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(holder, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    (holder as Record<string, unknown>)[key] = value;
  }
}

/** `toJSON` as JSON.stringify calls it (Date, URL...), called once. */
function resolveToJson(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  const toJson = (value as { toJSON?: unknown }).toJSON;
  return typeof toJson === 'function' ? toJson.call(value, key) : value;
}

/** Why JSON cannot carry `value` as it is, or undefined when it can. */
function refusal(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : 'must be a finite number (JSON has no NaN or Infinity)';
    case 'undefined':
      return inArray ? 'must not be undefined in a list (JSON would send null)' : undefined;
    case 'function':
    case 'symbol':
    case 'bigint':
      return `cannot be sent as JSON (${typeof value})`;
    case 'object': {
      if (value === null || Array.isArray(value)) return undefined;
      // Map, Set, RegExp, Error, typed arrays, boxed primitives: JSON would send `{}`, a
      // bare string or a list of digits, not what the caller holds.
      const tag = Object.prototype.toString.call(value);
      return tag === '[object Object]' ? undefined : `cannot be sent as JSON (${tag.slice(8, -1)})`;
    }
    default:
      return undefined;
  }
}

/** One copy in progress: the issues so far, the path of the value being copied. */
interface Walk {
  readonly issues: RequestIssue[];
  /** Joined into text only for an issue. */
  readonly path: string[];
  readonly prefix: string;
  values: number;
}

function pathText(walk: Walk, key?: string): string {
  const keys = key === undefined ? walk.path : [...walk.path, key];
  return keys.map(shownKey).join('.');
}

/** Copies `member` (read already) into `target` under `key`. */
function copyMember(walk: Walk, target: object, key: string, member: unknown, depth: number) {
  walk.path.push(key);
  const copied = copy(walk, member, key, depth, Array.isArray(target));
  walk.path.pop();
  if (copied !== undefined) put(target as Record<string, unknown>, key, copied);
}

function copy(walk: Walk, raw: unknown, key: string, depth: number, inArray: boolean): unknown {
  if (++walk.values > REQUEST_MAX_VALUES) {
    throw new Truncated({ path: walk.prefix, message: TOO_LARGE });
  }
  const value = resolveToJson(raw, key);
  const refused = refusal(value, inArray);
  if (refused !== undefined) {
    walk.issues.push({ path: pathText(walk), message: refused });
    return undefined;
  }
  if (typeof value === 'string' && hasLoneSurrogate(value)) {
    walk.issues.push({ path: pathText(walk), message: LONE_SURROGATE_MESSAGE });
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= REQUEST_MAX_DEPTH) {
    // Too deep a path to print whole: its first levels name the field that goes too deep.
    const keys = pathText(walk).split('.');
    const shown = keys.length > 3 ? `${keys.slice(0, 3).join('.')}…` : keys.join('.');
    throw new Truncated({ path: shown, message: TOO_DEEP });
  }
  // Every member is read once, before any is copied; holes and bad field names come first.
  const source = value as Record<string, unknown>;
  if (Array.isArray(source)) {
    const length = source.length;
    const items: unknown[] = new Array(length);
    for (let index = 0; index < length; index++) {
      if (index in source) items[index] = source[index];
      else {
        const message = 'must not have holes (JSON would send null)';
        walk.issues.push({ path: pathText(walk, String(index)), message });
      }
    }
    const target: unknown[] = new Array(length);
    for (let index = 0; index < length; index++) {
      if (index in items) copyMember(walk, target, String(index), items[index], depth + 1);
    }
    return target;
  }
  const names = Object.keys(source);
  const members: unknown[] = new Array(names.length);
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    if (hasLoneSurrogate(name)) {
      const message = `field name ${LONE_SURROGATE_MESSAGE}`;
      walk.issues.push({ path: pathText(walk, name), message });
    }
    members[index] = source[name];
  }
  const target: Record<string, unknown> = {};
  for (let index = 0; index < names.length; index++) {
    copyMember(walk, target, names[index] as string, members[index], depth + 1);
  }
  return target;
}

/**
 * Copies `input` into plain JSON values (objects with `Object.prototype`, arrays, strings,
 * finite numbers, booleans, null), reading each member once. Each refused part is an issue
 * whose path starts with `prefix`: a lone surrogate in a string or a field name, a value
 * JSON cannot carry (NaN, a Map, a hole), too deep or circular, too large. `undefined`
 * members of objects are left out, as JSON.stringify does. Recursive: the depth limit keeps
 * the stack small.
 */
export function snapshotRequest(input: unknown, prefix = ''): Snapshot {
  const walk: Walk = { issues: [], path: prefix === '' ? [] : [prefix], prefix, values: 0 };
  try {
    return { value: copy(walk, input, '', 0, false), issues: walk.issues, truncated: false };
  } catch (error) {
    if (!(error instanceof Truncated)) throw error;
    return { value: undefined, issues: [...walk.issues, error.issue], truncated: true };
  }
}
