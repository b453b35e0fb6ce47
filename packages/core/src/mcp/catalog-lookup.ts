import { McpError } from '../errors/mcp-errors.js';
import { ProtocolError } from '../errors/transport-errors.js';
import type { CallScope } from '../http/call-scope.js';
import { parseResponse } from '../http/response-body.js';
import type { RequestOptions, ServiceConnection } from '../http/service-connection.js';
import { isRecord } from '../is-record.js';
import {
  type CatalogLookupResult,
  CatalogLookupResultSchema,
  GET_PRODUCT_TOOL,
  GetProductArgumentsSchema,
  type GetProductResult,
  GetProductResultSchema,
  LOOKUP_CATALOG_TOOL,
  LookupCatalogArgumentsSchema,
  ToolsListResultSchema,
} from '../schemas/catalog-lookup.js';
import { type CatalogToolResponse, mcpAttempt, ucpTool } from './catalog-search.js';
import { type RpcId, rpcBody } from './json-rpc.js';

/** Pages of `tools/list` read at most: a server looping on its cursor cannot hold the call. */
const TOOL_PAGES_MAX = 10;
/** Tool names kept at most: a huge list is refused, not read into memory. */
const TOOL_NAMES_MAX = 1000;
const LIST = 'catalog.tools';
/** JSON-RPC "method not found": a server without `tools/list` lists no extra tools. */
const METHOD_NOT_FOUND = -32601;

async function readPages(
  connection: ServiceConnection,
  nextId: () => RpcId,
  scope: CallScope,
): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < TOOL_PAGES_MAX; page++) {
    const params = cursor === undefined ? '{}' : JSON.stringify({ cursor });
    const body = (id: RpcId) => rpcBody(id, 'tools/list', params);
    const read = (result: unknown) => parseResponse(ToolsListResultSchema, result, LIST);
    const list = await mcpAttempt(connection, { operation: LIST, body, read }, nextId(), scope);
    // In order; an entry without a text name is skipped (lenient).
    for (const tool of list.tools) {
      if (isRecord(tool) && typeof tool.name === 'string') names.push(tool.name);
      if (names.length > TOOL_NAMES_MAX) {
        throw new ProtocolError(`${LIST}: tools/list names more than ${TOOL_NAMES_MAX} tools`);
      }
    }
    cursor = list.nextCursor ?? undefined;
    if (cursor === undefined) return [...new Set(names)];
  }
  // Names on a later page would be silently "not offered": refused instead.
  throw new ProtocolError(
    `${LIST}: tools/list still has a nextCursor after ${TOOL_PAGES_MAX} pages`,
  );
}

/**
 * The names the MCP endpoint lists (`tools/list`, every page), in its order: one call, so
 * `timeoutMs` covers all pages, and a retry reads them again from the first. A service
 * without `tools/list` (-32601) lists no extra tools: `[]`.
 */
export async function listCatalogTools(
  connection: ServiceConnection,
  nextId: () => RpcId,
  options: RequestOptions = {},
): Promise<string[]> {
  try {
    return await connection.run(LIST, 'idempotent', options, (scope) =>
      readPages(connection, nextId, scope),
    );
  } catch (error) {
    if (error instanceof McpError && error.rpcCode === METHOD_NOT_FOUND) return [];
    throw error;
  }
}

/** `lookup_catalog`: products by id and/or retailer page URL (see `callCatalogTool`). */
export const LOOKUP = /* @__PURE__ */ ucpTool({
  operation: 'catalog.lookup',
  tool: LOOKUP_CATALOG_TOOL,
  args: LookupCatalogArgumentsSchema,
  result: CatalogLookupResultSchema,
  // Each id or URL names at most one product: no more are kept than were asked for.
  limit: ({ catalog: { ids = [], urls = [] } }) => ids.length + urls.length,
});
/** `get_product`: one product, its offers narrowed by the selected options. */
export const GET_PRODUCT = /* @__PURE__ */ ucpTool({
  operation: 'catalog.getProduct',
  tool: GET_PRODUCT_TOOL,
  args: GetProductArgumentsSchema,
  result: GetProductResultSchema,
  single: true,
});

/** The parsed `lookup_catalog` answer (products, `messages[]` with `not_found`) and the tier. */
export type CatalogLookupResponse = CatalogToolResponse<CatalogLookupResult>;
/** The parsed `get_product` answer (`product`, or `messages[]` with `not_found`) and the tier. */
export type GetProductResponse = CatalogToolResponse<GetProductResult>;
