import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';

type ObjectJsonSchema = Tool['inputSchema'];

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
