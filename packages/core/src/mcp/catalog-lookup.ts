import { McpError } from '../errors/mcp-errors.js';
import { parseResponse } from '../http/response-body.js';
import type { RequestOptions, ServiceConnection } from '../http/service-connection.js';
import {
  type CatalogLookup,
  type CatalogLookupResult,
  CatalogLookupResultSchema,
  GET_PRODUCT_TOOL,
  GetProductArgumentsSchema,
  type GetProductResult,
  GetProductResultSchema,
  LOOKUP_CATALOG_TOOL,
  LookupCatalogArgumentsSchema,
  type ProductSelection,
  ToolsListResultSchema,
} from '../schemas/catalog-lookup.js';
import {
  type CatalogCallOptions,
  type CatalogToolResponse,
  callCatalogTool,
  callMcp,
} from './catalog-search.js';
import { type RpcId, rpcBody } from './json-rpc.js';

/** Pages of `tools/list` read at most: a server looping on its cursor cannot hold the call. */
const TOOL_PAGES_MAX = 10;
const LIST_OPERATION = 'catalog.tools';

/**
 * The names of the tools the MCP endpoint lists (`tools/list`, every page), in its order.
 * Read only: retried like a search.
 */
export async function listCatalogTools(
  connection: ServiceConnection,
  nextId: () => RpcId,
  options: RequestOptions = {},
): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < TOOL_PAGES_MAX; page++) {
    const params = cursor === undefined ? '{}' : JSON.stringify({ cursor });
    const list = await callMcp(
      connection,
      nextId,
      {
        operation: LIST_OPERATION,
        body: (id) => rpcBody(id, 'tools/list', params),
        read: (result) => parseResponse(ToolsListResultSchema, result, LIST_OPERATION),
      },
      options,
    );
    names.push(...list.tools.map((tool) => tool.name));
    cursor = list.nextCursor ?? undefined;
    if (cursor === undefined) break;
  }
  return [...new Set(names)];
}

/** The call of a tool the service does not list: JSON-RPC's "method not found", nothing sent. */
export function toolNotListed(tool: string): McpError {
  return new McpError(-32601, `${tool} is not offered by this service (not in its tools/list)`, {
    tool,
  });
}

/** The parsed `lookup_catalog` answer (products, `messages[]` with `not_found`) and the tier. */
export type CatalogLookupResponse = CatalogToolResponse<CatalogLookupResult>;
/** The parsed `get_product` answer (`product`, or `messages[]` with `not_found`) and the tier. */
export type GetProductResponse = CatalogToolResponse<GetProductResult>;

/** `lookup_catalog` over MCP (see `callCatalogTool`): products by id and/or retailer URL. */
export function lookupCatalog(
  connection: ServiceConnection,
  nextId: () => RpcId,
  catalog: CatalogLookup,
  options?: CatalogCallOptions,
): Promise<CatalogLookupResponse> {
  const tool = {
    operation: 'catalog.lookup',
    tool: LOOKUP_CATALOG_TOOL,
    args: LookupCatalogArgumentsSchema,
    result: CatalogLookupResultSchema,
  };
  return callCatalogTool(connection, nextId, tool, catalog, options);
}

/** `get_product` over MCP (see `callCatalogTool`): one product, narrowed by selected options. */
export function getProduct(
  connection: ServiceConnection,
  nextId: () => RpcId,
  catalog: ProductSelection,
  options?: CatalogCallOptions,
): Promise<GetProductResponse> {
  const tool = {
    operation: 'catalog.getProduct',
    tool: GET_PRODUCT_TOOL,
    args: GetProductArgumentsSchema,
    result: GetProductResultSchema,
  };
  return callCatalogTool(connection, nextId, tool, catalog, options);
}
