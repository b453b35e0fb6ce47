import { CatalogError } from './catalog-error.js';

/** The MCP endpoint answered with a JSON-RPC `error`. */
export class McpError extends CatalogError {
  static override readonly kind: string = 'McpError';
  /** JSON-RPC error code, e.g. -32602 (invalid params). */
  readonly rpcCode: number;
  /** The error's `data` member, as sent. */
  readonly data: unknown;

  constructor(rpcCode: number, message: string, data: unknown) {
    super('mcp_error', `MCP error ${rpcCode}: ${message}`);
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** A `tools/call` result with `isError: true`: the tool ran and reported a failure. */
export class CatalogToolError extends CatalogError {
  static override readonly kind: string = 'CatalogToolError';
  /** Text of the result's messages (from `content` and `structuredContent.messages`). */
  readonly messages: string[];
  /** The result's `content` array, as sent. */
  readonly content: unknown[];

  constructor(messages: string[], content: unknown[], tool = 'search_catalog') {
    super('tool_error', `${tool} failed: ${messages.join('; ') || 'no message given'}`);
    this.messages = messages;
    this.content = content;
  }
}
