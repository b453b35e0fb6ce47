import * as z from 'zod/v4/mini';

/** Builds a module-level schema: `/* @__PURE__ *\/ schema(() => …)` lets a bundler drop it. */
export function schema<T>(build: () => T): T {
  return build();
}

/** A description where `z.toJSONSchema` (the MCP SDK) reads it: zod mini has no `.describe()`. */
export function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

/**
 * An open map of a request (`meta`, a conversation's body): any JSON object. Requests are
 * checked on their plain JSON copy (validation/request.ts), so its members are plain too.
 */
export function openObject() {
  return z.looseObject({});
}

/** The member names an object type declares, without those of an index signature. */
type DeclaredKeys<T> = keyof {
  [K in keyof T as string extends K ? never : number extends K ? never : K]: unknown;
};

/**
 * The public type of a leniently parsed answer: the zod output type without the index
 * signatures `z.looseObject` adds, at every depth, so a misspelt field (`variant.prise`) is
 * a compile error instead of `unknown`. The parse still keeps unknown fields at run time
 * (read them through a cast or `isRecord`). An object that declares no member at all
 * (`metadata`, `placement`) is an open map and stays `{ [key: string]: unknown }`.
 */
export type Closed<T> = T extends readonly (infer Item)[]
  ? Closed<Item>[]
  : T extends object
    ? [DeclaredKeys<T>] extends [never]
      ? { [key: string]: unknown }
      : { [K in keyof T as string extends K ? never : number extends K ? never : K]: Closed<T[K]> }
    : T;
