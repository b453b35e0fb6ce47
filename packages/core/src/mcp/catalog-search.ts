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
  type CatalogQuery,
  type CatalogSearchResult,
  SEARCH_CATALOG_TOOL,
  SearchCatalogArgumentsSchema,
} from '../schemas/catalog.js';
import { type JsonRpcError, JsonRpcResponseSchema } from '../schemas/mcp.js';
import { validateRequest } from '../validation/request.js';
import { matchResponse, type RpcId, rpcError, rpcResult, toolsCallBody } from './json-rpc.js';
import { readSseResponse } from './sse.js';
import { toCatalogResult } from './tool-result.js';

const OPERATION = 'catalog.search';

/** Options of `client.catalog.search`. */
export interface CatalogSearchOptions extends RequestOptions {
  /** UCP `meta` (e.g. `{ "ucp-agent": { profile } }`); sent as `null` when absent. */
  meta?: CatalogMeta;
}

/** The parsed catalog answer and the tier the service applied. */
export interface CatalogSearchResponse {
  /** `structuredContent` of the tool result; unknown fields kept, buy links untouched. */
  result: CatalogSearchResult;
  /** From `x-ucp-auth-tier`: `token` (valid key) or `anonymous`. */
  tier: AuthTier;
}

function readTier(response: Response, connection: ServiceConnection): AuthTier {
  const header = response.headers.get('x-ucp-auth-tier')?.trim().toLowerCase();
  const tier = AUTH_TIERS.find((known) => known === header);
  if (tier !== undefined) return tier;
  // The contract promises the header; without it, claim nothing better than anonymous.
  // The value is the server's text: redacted (any case) and cut short before it is logged.
  const shown = header === undefined ? null : connection.redact(header).slice(0, 40);
  connection.options.logger?.warn?.(`${OPERATION}: missing or unknown x-ucp-auth-tier`, {
    header: shown,
  });
  return 'anonymous';
}

/** The JSON-RPC `error` a non-2xx body carries, if it is one. */
function carriedRpcError(text: string): JsonRpcError | undefined {
  try {
    const parsed = JsonRpcResponseSchema.safeParse(parseServerJson(text));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
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
): Error {
  const retryable = response.status === 429 || response.status >= 500;
  const carried = retryable ? undefined : carriedRpcError(text);
  if (carried) return rpcError(carried, response, redact);
  return errorFromResponse(response, text, {
    operation: OPERATION,
    redact,
    credentialSent: connection.hasApiKey,
  });
}

async function readRpcMessage(response: Response, id: RpcId, scope: CallScope, redact: Redactor) {
  const type = mediaType(response);
  if (type === 'text/event-stream') return readSseResponse(response, id, scope);
  const text = await readBodyText(response, scope);
  if (type !== 'application/json') {
    throw new ProtocolError(
      `${OPERATION}: expected application/json or text/event-stream, got ${typeShown(response, redact)} (HTTP ${response.status}): ${snippet(text, redact)}`,
      { status: response.status },
    );
  }
  const message = matchResponse(parseJsonText(text, response, OPERATION, redact), id);
  if (message === undefined)
    throw new ProtocolError(`${OPERATION}: the JSON answer is not a response`);
  return message;
}

async function attempt(
  connection: ServiceConnection,
  argsJson: string,
  limit: number,
  id: RpcId,
  scope: CallScope,
): Promise<CatalogSearchResponse> {
  const url = connection.mcpEndpoint(OPERATION);
  const headers = connection.mcpHeaders();
  const body = toolsCallBody(id, SEARCH_CATALOG_TOOL, argsJson);
  const response = await connection.send({ method: 'POST', url, headers, body }, scope);
  // After a paid resend, the credential is a secret of this call's errors too.
  const redact = connection.redactFor(scope);
  if (!response.ok) {
    throw httpFailure(response, await readBodyText(response, scope), connection, redact);
  }
  const message = await readRpcMessage(response, id, scope, redact);
  const parsed = toCatalogResult(rpcResult(message, response, redact), redact, limit);
  // A paid answer may echo its credential: it leaves the call redacted with that credential.
  const paid = connection.paidRedactor(scope);
  const result = paid === undefined ? parsed : paid(parsed);
  return { result, tier: readTier(response, connection) };
}

/**
 * `search_catalog` over MCP: one stateless JSON-RPC `tools/call` POST per attempt (no
 * `initialize`), answered as JSON or SSE. Safe to repeat, so it is retried.
 */
export function searchCatalog(
  connection: ServiceConnection,
  nextId: () => RpcId,
  catalog: CatalogQuery,
  options: CatalogSearchOptions = {},
): Promise<CatalogSearchResponse> {
  try {
    const args = validateRequest(
      SearchCatalogArgumentsSchema,
      { meta: options.meta ?? null, catalog },
      OPERATION,
    );
    connection.mcpEndpoint(OPERATION);
    const argsJson = JSON.stringify(args);
    // Keep what was asked, never more than CATALOG_LIMIT_MAX (also without a limit, when the
    // service picks its page size; UCP's is 10).
    const limit = Math.min(args.catalog.pagination?.limit ?? CATALOG_LIMIT_MAX, CATALOG_LIMIT_MAX);
    return connection.run(OPERATION, 'idempotent', options, (scope) =>
      attempt(connection, argsJson, limit, nextId(), scope),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}
