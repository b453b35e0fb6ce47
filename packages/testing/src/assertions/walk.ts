/** Most values visited in one walk: anything larger is reported, not read to its end. */
const MAX_NODES = 200_000;
/** Deepest nesting followed. */
const MAX_DEPTH = 64;
/** Most bytes of one binary value decoded as text. */
const MAX_BYTES = 16 * 1024 * 1024;

/** The text found in a value, and what could not be read. */
export interface WalkedText {
  /** Every string, number and decoded byte run found, in the order met. */
  strings: string[];
  /** Values the walk could not read (a stream, a throwing getter, a budget reached). */
  problems: string[];
}

/** Objects whose content arrives later: their text cannot be read from the value itself. */
function opaqueKind(value: object): string | undefined {
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (['ReadableStream', 'Response', 'Request', 'Blob', 'File', 'Promise'].includes(tag)) {
    return tag;
  }
  if (['WeakMap', 'WeakSet', 'WeakRef', 'Generator', 'AsyncGenerator'].includes(tag)) return tag;
  if (typeof (value as { then?: unknown }).then === 'function') return 'a promise';
  if (Symbol.asyncIterator in value) return 'an async iterable (a stream)';
  return undefined;
}

function bytesText(value: ArrayBuffer | ArrayBufferView): string {
  const view = ArrayBuffer.isView(value)
    ? new Uint8Array(value.buffer, value.byteOffset, Math.min(value.byteLength, MAX_BYTES))
    : new Uint8Array(value, 0, Math.min(value.byteLength, MAX_BYTES));
  return new TextDecoder('utf-8', { fatal: false }).decode(view);
}

/** The values an object holds: entries, members, an error's parts, its own properties. */
function childrenOf(value: object, withStacks: boolean): unknown[] {
  if (value instanceof Map) return [...value].flat();
  if (value instanceof Set) return [...value];
  if (Array.isArray(value)) return value;
  const children: unknown[] = [];
  if (value instanceof Error) {
    children.push(value.name, value.message, value.cause);
    if (withStacks) children.push(value.stack);
  }
  // A class may hide fields from JSON (toJSON): read what it serializes and what it holds.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') children.push(toJSON.call(value));
  for (const key of Reflect.ownKeys(value)) {
    if (key === 'stack' && !withStacks && value instanceof Error) continue;
    if (typeof key === 'string') children.push(key);
    children.push((value as Record<PropertyKey, unknown>)[key]);
  }
  children.push(...getterValues(value));
  return children;
}

/** What a class instance shows through getters of its classes (a private field behind one). */
function getterValues(value: object): unknown[] {
  const values: unknown[] = [];
  let proto = Object.getPrototypeOf(value) as object | null;
  for (let level = 0; proto && proto !== Object.prototype && level < 8; level++) {
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (descriptor.get && key !== '__proto__') values.push(Reflect.get(proto, key, value));
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return values;
}

/**
 * Every piece of text in a value, walked with bounded depth and size: strings, numbers and
 * bigints, Map entries, Set members, an Error's message, stack and cause, typed arrays and
 * buffers decoded as UTF-8, arrays, plain objects and class instances (their own properties
 * what their getters and `toJSON` give), circular references once. `withStacks: false` leaves
 * out errors' stacks (file paths, no text the agent wrote). A stream, a response or a promise is
 * reported as a problem: its content is not in the value.
 */
export function walkText(root: unknown, where: string, withStacks = true): WalkedText {
  const strings: string[] = [];
  const problems = new Set<string>();
  const seen = new Set<object>();
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (++nodes > MAX_NODES) {
      problems.add(`${where} is too large to check (over ${MAX_NODES} values)`);
      break;
    }
    if (typeof value === 'string') strings.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint') strings.push(String(value));
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (depth >= MAX_DEPTH) {
      problems.add(`${where} nests deeper than ${MAX_DEPTH} levels: it cannot be checked`);
      continue;
    }
    try {
      const opaque = opaqueKind(value);
      if (opaque) {
        problems.add(
          `${where} holds ${opaque}, whose content the kit cannot read: drain the stream into an array before returning it`,
        );
        continue;
      }
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
        strings.push(bytesText(value));
        continue;
      }
      const children = childrenOf(value, withStacks);
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push({ value: children[i], depth: depth + 1 });
      }
    } catch {
      problems.add(`${where} holds a value that throws when read: it cannot be checked`);
    }
  }
  return { strings, problems: [...problems] };
}
