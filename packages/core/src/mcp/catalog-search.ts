import type * as z from 'zod/v4/core';
import { ProtocolError } from '../errors/transport-errors.js';
import { readBodyText } from '../http/body-reader.js';
import type { CallScope } from '../http/call-scope.js';
import { errorFromResponse } from '../http/error-from-response.js';
import type { Redactor } from '../http/redact.js';
import {
  mediaType,
  parseJsonText,
  parseServerJson,
  snippet,
  typeShown,
} from '../http/response-body.js';
import type { RequestOptions, ServiceConnection } from '../http/service-connection.js';
import {
  AUTH_TIERS,
  type AuthTier,
  CATALOG_LIMIT_MAX,
  type CatalogMeta,
  CatalogSearchResultSchema,
  SEARCH_CATALOG_TOOL,
  SearchCatalogArgumentsSchema,
} from '../schemas/catalog.js';
import { JsonRpcResponseSchema } from '../schemas/mcp.js';
import { validateRequest } from '../validation/request.js';
import { matchResponse, type RpcId, rpcBody, rpcError, rpcResult } from './json-rpc.js';
import { readSseResponse } from './sse.js';
import { toCatalogResult } from './tool-result.js';

/** Per-call options of the catalog tools (`search`, `lookup`, `getProduct`). */
export interface CatalogCallOptions extends RequestOptions {
  /** UCP `meta` (e.g. `{ "ucp-agent": { profile } }`); sent as `null` when absent. */
  meta?: CatalogMeta;
}

/** A parsed catalog tool answer and the tier the service applied. */
export interface CatalogToolResponse<R> {
  /** `structuredContent` of the tool result; unknown fields kept, buy links untouched. */
  result: R;
  /** From `x-ucp-auth-tier`: `token` (valid key) or `anonymous`. */
  tier: AuthTier;
}

/** One JSON-RPC exchange with the MCP endpoint: its body for an id, and how its `result` is read. */
export interface McpCall<T> {
  operation: string;
  body(id: RpcId): string;
  read(result: unknown, response: Response, redact: Redactor): T;
}

function readTier(
  response: Response,
  connection: ServiceConnection,
  redact: Redactor,
  operation: string,
): AuthTier {
  const header = response.headers.get('x-ucp-auth-tier')?.trim().toLowerCase();
  const tier = AUTH_TIERS.find((known) => known === header);
  if (tier !== undefined) return tier;
  // The contract promises the header; without it, claim nothing better than anonymous.
  // The value is the server's text: redacted with the call's secrets (a paid call's credential
  // too) and cut short before it is logged.
  const shown = header === undefined ? null : redact(header).slice(0, 40);
  connection.options.logger?.warn?.(`${operation}: missing or unknown x-ucp-auth-tier`, {
    header: shown,
  });
  return 'anonymous';
}

/**
 * A non-2xx MCP answer: the JSON-RPC error it carries (e.g. 400 with -32602), else the
 * HTTP error. 429 and 5xx stay HTTP errors so that they are retried.
 */
function httpFailure(
  response: Response,
  text: string,
  connection: ServiceConnection,
  redact: Redactor,
  operation: string,
): Error {
  if (response.status !== 429 && response.status < 500) {
    try {
      const carried = JsonRpcResponseSchema.safeParse(parseServerJson(text)).data?.error;
      if (carried) return rpcError(carried, response, redact, operation);
    } catch {
      // Not JSON: the HTTP error.
    }
  }
  return errorFromResponse(response, text, {
    operation,
    redact,
    credentialSent: connection.hasApiKey,
  });
}

async function readRpcMessage(
  response: Response,
  id: RpcId,
  scope: CallScope,
  redact: Redactor,
  operation: string,
) {
  const type = mediaType(response);
  if (type === 'text/event-stream') return readSseResponse(response, id, scope);
  const text = await readBodyText(response, scope);
  if (type !== 'application/json') {
    throw new ProtocolError(
      `${operation}: expected application/json or text/event-stream, got ${typeShown(response, redact)} (HTTP ${response.status}): ${snippet(text, redact)}`,
      { status: response.status },
    );
  }
  const message = matchResponse(parseJsonText(text, response, operation, redact), id);
  if (message === undefined)
    throw new ProtocolError(`${operation}: the JSON answer is not a response`);
  return message;
}

/** One attempt of an MCP call within `scope` (callers that run their own scope use it). */
export async function mcpAttempt<T>(
  connection: ServiceConnection,
  call: McpCall<T>,
  id: RpcId,
  scope: CallScope,
): Promise<T> {
  const { operation } = call;
  const url = connection.mcpEndpoint(operation);
  const headers = connection.mcpHeaders();
  const response = await connection.send(
    { method: 'POST', url, headers, body: call.body(id) },
    scope,
  );
  // After a paid resend, the credential is a secret of this call's errors too.
  const redact = connection.redactFor(scope);
  if (!response.ok) {
    const text = await readBodyText(response, scope);
    throw httpFailure(response, text, connection, redact, operation);
  }
  const message = await readRpcMessage(response, id, scope, redact, operation);
  const value = call.read(rpcResult(message, response, redact, operation), response, redact);
  // A paid answer may echo its credential: it leaves the call redacted with that credential.
  return scope.credential === undefined ? value : redact(value);
}

/** A UCP catalog tool: its operation name, tool name and the schemas of its arguments and result. */
export interface UcpTool<A extends z.$ZodType, R extends z.$ZodType> {
  operation: string;
  tool: string;
  args: A;
  result: R;
  /** Most products kept of an answer (default {@link CATALOG_LIMIT_MAX}). */
  limit?: (args: z.output<A>) => number;
  /** The answer holds one `product`, not `products[]` (get_product). */
  single?: boolean;
}

/**
 * Calls a catalog tool with `{ meta, catalog }`, validated strictly before anything is sent,
 * in one stateless JSON-RPC POST per attempt (no `initialize`), answered as JSON or SSE: a
 * read, so it is retried. The answer is parsed leniently and bounded (see mcp/tool-result.ts).
 */
export async function callCatalogTool<A extends z.$ZodType, R extends z.$ZodType>(
  connection: ServiceConnection,
  nextId: () => RpcId,
  tool: UcpTool<A, R>,
  catalog: unknown,
  options: CatalogCallOptions = {},
): Promise<CatalogToolResponse<z.output<R>>> {
  const { operation } = tool;
  const args = validateRequest(tool.args, { meta: options.meta ?? null, catalog }, operation);
  connection.mcpEndpoint(operation);
  // Serialised once: every attempt reuses it and only changes the id.
  const params = `{"name":${JSON.stringify(tool.tool)},"arguments":${JSON.stringify(args)}}`;
  const limit = tool.limit?.(args) ?? CATALOG_LIMIT_MAX;
  const call: McpCall<CatalogToolResponse<z.output<R>>> = {
    operation,
    body: (id) => rpcBody(id, 'tools/call', params),
    read: (result, response, redact) => ({
      result: toCatalogResult(tool, result, redact, limit),
      tier: readTier(response, connection, redact, operation),
    }),
  };
  return connection.run(operation, 'idempotent', options, (scope) =>
    mcpAttempt(connection, call, nextId(), scope),
  );
}

/** A catalog tool, its schemas' types inferred. */
export const ucpTool = <A extends z.$ZodType, R extends z.$ZodType>(tool: UcpTool<A, R>) => tool;

export const SEARCH = /* @__PURE__ */ ucpTool({
  operation: 'catalog.search',
  tool: SEARCH_CATALOG_TOOL,
  args: SearchCatalogArgumentsSchema,
  result: CatalogSearchResultSchema,
  // Keep what was asked, never more than CATALOG_LIMIT_MAX (also without a limit, when the
  // service picks its page size; UCP's is 10).
  limit: (args) => Math.min(args.catalog.pagination?.limit ?? CATALOG_LIMIT_MAX, CATALOG_LIMIT_MAX),
});
