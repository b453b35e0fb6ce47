/*
 * One plain JSON copy of a request, taken before anything checks it. Every getter, Proxy
 * trap and `toJSON` of the caller's value runs exactly once, here; the checks and the wire
 * then see only the copy, so nothing can answer one way to the check and another way to
 * `JSON.stringify` (a check-then-send race). The copy is iterative, bounded in depth and in
 * size, and refuses what JSON cannot carry instead of letting `JSON.stringify` change it.
 */
import type { RequestIssue } from '../errors/catalog-error.js';
import { hasLoneSurrogate, LONE_SURROGATE_MESSAGE } from './text.js';

/** Deepest nesting a request may have: deeper is refused (it is also how a cycle ends). */
const REQUEST_MAX_DEPTH = 256;

/** Most values (strings, numbers, objects, items...) one request may hold. */
const REQUEST_MAX_VALUES = 1_000_000;

const TOO_DEEP = 'nested too deeply or circular (more than 256 levels)';
const TOO_LARGE = 'too large (more than 1000000 values)';

/** The way down to a value, linked to its parent so that a clean copy builds no strings. */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly key: string;
}

const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/** A field name as a path shows it: a lone surrogate as `\uD800` text, so messages stay well-formed. */
function shownKey(key: string): string {
  if (!hasLoneSurrogate(key)) return key;
  return key.replace(
    LONE_SURROGATES,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function pathText(link: PathLink | undefined): string {
  const keys: string[] = [];
  for (let at = link; at !== undefined; at = at.parent) keys.push(shownKey(at.key));
  return keys.reverse().join('.');
}

/** Too deep a path to print whole: its first levels name the field that goes too deep. */
const SHOWN_LEVELS = 3;

function outerPathText(link: PathLink | undefined): string {
  const keys = pathText(link).split('.');
  return keys.length > SHOWN_LEVELS ? `${keys.slice(0, SHOWN_LEVELS).join('.')}…` : keys.join('.');
}

/** One value still to copy, and where its copy goes. */
interface Pending {
  readonly value: unknown;
  readonly holder: Record<string, unknown> | unknown[];
  readonly key: string;
  readonly path: PathLink | undefined;
  readonly depth: number;
  readonly inArray: boolean;
}

/** The outcome of {@link snapshotRequest}: the copy, and why parts of it were refused. */
export interface Snapshot {
  readonly value: unknown;
  readonly issues: RequestIssue[];
  /** True when the input was too deep or too large: the copy is partial. */
  readonly truncated: boolean;
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

/** Work that copying one container adds: its members, each read once. */
function members(
  item: Pending,
  copy: Record<string, unknown> | unknown[],
  issues: RequestIssue[],
): Pending[] {
  const source = item.value as Record<string, unknown>;
  const depth = item.depth + 1;
  const pending: Pending[] = [];
  if (Array.isArray(source)) {
    const length = source.length;
    for (let index = 0; index < length; index++) {
      const path = { parent: item.path, key: String(index) };
      if (!(index in source)) {
        issues.push({
          path: pathText(path),
          message: 'must not have holes (JSON would send null)',
        });
        continue;
      }
      pending.push({
        value: source[index],
        holder: copy,
        key: String(index),
        path,
        depth,
        inArray: true,
      });
    }
    return pending;
  }
  for (const key of Object.keys(source)) {
    const path = { parent: item.path, key };
    if (hasLoneSurrogate(key)) {
      issues.push({ path: pathText(path), message: `field name ${LONE_SURROGATE_MESSAGE}` });
    }
    pending.push({ value: source[key], holder: copy, key, path, depth, inArray: false });
  }
  return pending;
}

/**
 * Copies `input` into plain JSON values (objects with `Object.prototype`, arrays, strings,
 * finite numbers, booleans, null), reading each member once. Each refused part is an issue
 * whose path starts with `prefix`: a lone surrogate in a string or a field name, a value
 * JSON cannot carry (NaN, a Map, a hole), too deep or circular, too large. `undefined`
 * members of objects are left out, as JSON.stringify does.
 */
export function snapshotRequest(input: unknown, prefix = ''): Snapshot {
  const issues: RequestIssue[] = [];
  const root: unknown[] = [];
  const rootPath = prefix === '' ? undefined : { parent: undefined, key: prefix };
  const stack: Pending[] = [
    { value: input, holder: root, key: '0', path: rootPath, depth: 0, inArray: false },
  ];
  let values = 0;
  while (stack.length > 0) {
    const item = stack.pop() as Pending;
    if (++values > REQUEST_MAX_VALUES) {
      return {
        value: undefined,
        issues: [...issues, { path: prefix, message: TOO_LARGE }],
        truncated: true,
      };
    }
    const value = resolveToJson(item.value, item.holder === root ? '' : item.key);
    const refused = refusal(value, item.inArray);
    if (refused !== undefined) {
      issues.push({ path: pathText(item.path), message: refused });
      continue;
    }
    if (value === undefined) continue;
    if (typeof value === 'string' && hasLoneSurrogate(value)) {
      issues.push({ path: pathText(item.path), message: LONE_SURROGATE_MESSAGE });
    }
    if (value === null || typeof value !== 'object') {
      put(item.holder, item.key, value);
      continue;
    }
    if (item.depth >= REQUEST_MAX_DEPTH) {
      return {
        value: undefined,
        issues: [...issues, { path: outerPathText(item.path), message: TOO_DEEP }],
        truncated: true,
      };
    }
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
      ? new Array(value.length)
      : {};
    put(item.holder, item.key, copy);
    const next = members({ ...item, value }, copy, issues);
    // Pushed in reverse, so members are read in order (as JSON.stringify reads them).
    for (let index = next.length - 1; index >= 0; index--) stack.push(next[index] as Pending);
  }
  return { value: root[0], issues, truncated: false };
}
