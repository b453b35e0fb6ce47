import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';

type ObjectJsonSchema = Tool['inputSchema'];

/** A JSON Schema node as zod writes it: an object of keywords. */
type JsonSchemaNode = Record<string, unknown>;

/**
 * A zod object schema as the JSON Schema an MCP `tools/list` carries. Draft 7, like the
 * SDK's own `McpServer`, because the SDK client checks `structuredContent` with Ajv, whose
 * default dialect it is; `$schema` is left out, hosts do not need it.
 */
export function toObjectJsonSchema(schema: z.ZodType, io: 'input' | 'output'): ObjectJsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7', io });
  if (jsonSchema.type !== 'object') {
    throw new TypeError('An MCP tool schema must describe an object');
  }
  // zod types property schemas as `JSONSchema | boolean`; it writes objects for every zod type.
  return jsonSchema as ObjectJsonSchema;
}

function isNode(value: unknown): value is JsonSchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullNode(value: unknown): boolean {
  return isNode(value) && value.type === 'null' && Object.keys(value).length === 1;
}

/**
 * The property without its `null` alternative (zod writes `anyOf: [X, {type: 'null'}]`, or
 * `type: [T, 'null']` for a plain type), or `undefined` when it has none.
 */
function withoutNull(property: JsonSchemaNode): JsonSchemaNode | undefined {
  const { anyOf, type, ...rest } = property;
  if (Array.isArray(type) && type.length === 2 && type.includes('null')) {
    return { ...rest, type: type.find((member) => member !== 'null') };
  }
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some(isNullNode)) {
    const other = anyOf.find((member) => !isNullNode(member));
    return isNode(other) && type === undefined ? { ...other, ...rest } : undefined;
  }
  return undefined;
}

/** "…; null for the default." reads "…; leave out for the default." where null is not shown. */
function describedAsOptional(property: JsonSchemaNode): JsonSchemaNode {
  const { description } = property;
  if (typeof description !== 'string') return property;
  return { ...property, description: description.replace(/\bnull (for|to)\b/g, 'leave out $1') };
}

/**
 * A built-in's strict input schema as MCP hosts should see it. OpenAI's strict mode needs
 * every field required and nullable; MCP has no strict mode, and hosts that check arguments
 * themselves (`@langchain/mcp-adapters`) refuse `{ query }` against it, while others (the
 * MCP Inspector's CLI) only parse list arguments whose schema says `type: 'array'`. So each
 * nullable top-level field is advertised as its plain type and left out of `required`, and
 * `optionalNested` (property → item fields the tool fills in when left out) drops nested
 * requirements. The server still accepts `null`: the tool's own preprocess makes a missing
 * field null.
 */
export function withOptionalFields(
  schema: ObjectJsonSchema,
  optionalNested: Readonly<Record<string, readonly string[]>> = {},
): ObjectJsonSchema {
  const properties: Record<string, object> = {};
  const optional = new Set<string>();
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const plain = isNode(property) ? withoutNull(property) : undefined;
    if (plain) optional.add(key);
    const advertised = plain ? describedAsOptional(plain) : property;
    properties[key] = withOptionalItemFields(advertised, optionalNested[key] ?? []);
  }
  const required = (schema.required ?? []).filter((key) => !optional.has(key));
  return { ...schema, properties, required };
}

/** An array property whose item objects may leave out `fields`. */
function withOptionalItemFields(property: object, fields: readonly string[]): object {
  if (fields.length === 0 || !isNode(property) || !isNode(property.items)) return property;
  const items = property.items;
  const required = Array.isArray(items.required) ? items.required : [];
  return {
    ...property,
    items: { ...items, required: required.filter((key) => !fields.includes(key)) },
  };
}
