import * as z from 'zod/v4/mini';

/** Builds a module-level schema: `/* @__PURE__ *\/ schema(() => …)` lets a bundler drop it. */
export function schema<T>(build: () => T): T {
  return build();
}

/**
 * A description in zod's global registry, where `z.toJSONSchema` (the MCP SDK, the
 * emulator's tool list) reads it: zod mini has no `.describe()`.
 */
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
