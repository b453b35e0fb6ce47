import { RateLimitError } from '../errors/api-errors.js';
import { McpError } from '../errors/mcp-errors.js';
import { ProtocolError } from '../errors/transport-errors.js';
import type { Redactor } from '../http/redact.js';
import { headerRecord, parseResponse } from '../http/response-body.js';
import { retryAfterFromSeconds } from '../http/retry.js';
import { isRecord } from '../is-record.js';
import { type JsonRpcError, JsonRpcResponseSchema } from '../schemas/mcp.js';

/** JSON-RPC code this service uses for rate limits, with `data.retry_after` in seconds. */
const RATE_LIMIT_RPC_CODE = -32000;

/** A JSON-RPC id as sent by the client. */
export type RpcId = string | number;

/** A JSON-RPC request body: `method` with `paramsJson` (already serialised). */
export function rpcBody(id: RpcId, method: string, paramsJson: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"${method}","params":${paramsJson}}`;
}

/**
 * Classifies one incoming JSON-RPC message: the answer to `id` (returned), something
 * else to skip (a notification or a server request: undefined), or an answer to another
 * id (ProtocolError). An error answer with a null id is taken as ours: a server that
 * could not read the request cannot echo its id.
 */
export function matchResponse(message: unknown, id: RpcId): Record<string, unknown> | undefined {
  if (Array.isArray(message)) {
    return message.map((item) => matchResponse(item, id)).find((item) => item !== undefined);
  }
  if (!isRecord(message)) throw new ProtocolError('MCP answer is not a JSON-RPC object');
  if ('method' in message) return undefined;
  if (message.id === id || (message.id === null && 'error' in message)) return message;
  // The received id is not quoted: it is the server's text and could echo a secret.
  throw new ProtocolError(
    `MCP answer has a different JSON-RPC id (${typeof message.id}) than the request's ${JSON.stringify(id)}`,
  );
}

/** A JSON-RPC error as a RateLimitError (-32000 with `data.retry_after`) or an McpError. */
export function rpcError(
  error: JsonRpcError,
  response: Response,
  redact: Redactor,
  operation: string,
): Error {
  const data = redact(error.data);
  const message = redact(error.message);
  const retryAfter = isRecord(data) ? data.retry_after : undefined;
  const seconds = typeof retryAfter === 'string' ? Number(retryAfter) : retryAfter;
  const wait = typeof seconds === 'number' ? retryAfterFromSeconds(seconds) : undefined;
  if (error.code === RATE_LIMIT_RPC_CODE && wait !== undefined) {
    return new RateLimitError({
      status: response.status,
      detail: message,
      headers: headerRecord(response.headers, redact),
      message: `${operation} is rate limited: ${message}`,
      ...wait,
    });
  }
  return new McpError(error.code, message, data);
}

/** Checks the JSON-RPC envelope and returns its `result`, throwing its `error`. */
export function rpcResult(
  message: Record<string, unknown>,
  response: Response,
  redact: Redactor,
  operation: string,
): unknown {
  const envelope = parseResponse(JsonRpcResponseSchema, message, operation, response.status);
  if (envelope.error) throw rpcError(envelope.error, response, redact, operation);
  if (!('result' in envelope)) {
    throw new ProtocolError('MCP answer has neither result nor error', { status: response.status });
  }
  return envelope.result;
}
