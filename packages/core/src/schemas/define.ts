import * as z from 'zod/v4/mini';

/**
 * Builds a module-level schema, written `/* @__PURE__ *\/ schema(() => …)`. zod mini's
 * factories are calls a bundler cannot prove free of side effects, so a schema built at
 * module level would be kept, and zod with it, by every page importing anything from its
 * file (`COUNTRY_CODES`, `commissionPercentage`). A pure call whose only argument is a
 * function is dropped when its result is unused.
 */
export function schema<T>(build: () => T): T {
  return build();
}

/**
 * `schema` with a description, as classic zod's `.describe()` gives one: in zod's global
 * registry, where `z.toJSONSchema` (the MCP SDK, the emulator's tool list) reads it. zod mini
 * has no `.describe()`, and the registry is in every zod from 3.25's `zod/v4` on.
 */
export function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}
