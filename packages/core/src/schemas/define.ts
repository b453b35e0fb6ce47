import * as z from 'zod/v4/mini';
import { copyOpenMap } from '../validation/request.js';

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
 * An open map of a request (`meta`, a conversation's body): any JSON object, copied once as
 * JSON sends it, and refused (naming the field) where JSON would change it.
 */
export function openObject() {
  return z.looseObject({}).check(copyOpenMap);
}
