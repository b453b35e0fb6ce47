import { isJson, type Json } from '../json.js';
import type { ArgumentStyle, DeclaredTool } from './script.js';

/**
 * How a provider's models write tool arguments: `nulls`, every property of the schema present
 * and `null` for "not given" (OpenAI strict mode); `omit`, optional fields left out (Claude,
 * Gemini, OpenAI without strict mode, open models).
 */
export type ProviderArguments = 'nulls' | 'omit';

/** Nesting followed when writing arguments; scripted arguments are never deeper. */
const MAX_DEPTH = 16;

/** The schema a `$ref` names inside the root (`#/$defs/x`, `#/definitions/x`). */
function resolveRef(schema: Json, root: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  const [, group, name] = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref) ?? [];
  const defs = group ? root[group] : undefined;
  const target = isJson(defs) && name ? defs[name] : undefined;
  return isJson(target) ? target : schema;
}

/** The branch of a schema (through `anyOf`) that describes values of this kind. */
function branchFor(schema: Json, value: unknown, root: Json): Json {
  const resolved = resolveRef(schema, root);
  if (!Array.isArray(resolved.anyOf)) return resolved;
  const kind = Array.isArray(value) ? 'array' : 'object';
  const branch = resolved.anyOf
    .filter(isJson)
    .map((option) => resolveRef(option, root))
    .find(
      (option) =>
        option.type === kind || (Array.isArray(option.type) && option.type.includes(kind)),
    );
  return branch ?? resolved;
}

function withNulls(value: unknown, schema: Json, root: Json, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  const branch = branchFor(schema, value, root);
  if (Array.isArray(value)) {
    const items = isJson(branch.items) ? branch.items : {};
    return value.map((item) => withNulls(item, items, root, depth + 1));
  }
  const properties = isJson(branch.properties) ? branch.properties : {};
  const written: Json = {};
  for (const key of Object.keys(properties)) written[key] = null;
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    written[key] = isJson(property) ? withNulls(item, property, root, depth + 1) : item;
  }
  return written;
}

function withoutNulls(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== null)
      .map(([key, item]) => [key, withoutNulls(item, depth + 1)]),
  );
}

/**
 * Scripted arguments as a provider's model writes them for a declared tool: with `nulls`,
 * every property the schema declares and the script left out is `null` (nested objects too);
 * with `omit`, every `null` is left out. `as-written` returns them unchanged.
 */
export function writeArguments(
  args: Record<string, unknown>,
  tool: DeclaredTool | undefined,
  mode: ProviderArguments,
  style: ArgumentStyle = 'provider',
): Record<string, unknown> {
  if (style === 'as-written') return args;
  if (mode === 'omit') return withoutNulls(args, 0) as Record<string, unknown>;
  const schema = isJson(tool?.parameters) ? tool.parameters : {};
  return withNulls(args, schema, schema, 0) as Record<string, unknown>;
}
