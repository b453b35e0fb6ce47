import * as z from 'zod/v4/mini';
import { schema } from './define.js';

export const JsonRpcResponseSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.optional(z.unknown()),
    error: z.optional(
      z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) }),
    ),
  }),
);
/** A JSON-RPC 2.0 error object: code, message, optional data. */
export type JsonRpcError = NonNullable<z.infer<typeof JsonRpcResponseSchema>['error']>;

/** The result of an MCP `tools/call`: content, structured content, and whether it failed. */
export const ToolCallResultSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    content: z.optional(z.array(z.looseObject({ type: z.string() }))),
    structuredContent: z.optional(z.unknown()),
    isError: z.optional(z.boolean()),
  }),
);
export type ToolCallResult = z.infer<typeof ToolCallResultSchema>;
