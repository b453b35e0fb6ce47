import { z } from 'zod/v4';

/** A JSON-RPC 2.0 error object. */
export const JsonRpcErrorSchema = z.looseObject({
  code: z.number(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type JsonRpcError = z.infer<typeof JsonRpcErrorSchema>;

/** A JSON-RPC 2.0 response: either `result` or `error`. */
export const JsonRpcResponseSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.unknown().optional(),
  error: JsonRpcErrorSchema.optional(),
});
export type JsonRpcResponse = z.infer<typeof JsonRpcResponseSchema>;

/** The result of an MCP `tools/call`. */
export const ToolCallResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).optional(),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
export type ToolCallResult = z.infer<typeof ToolCallResultSchema>;
