import { parseResponse } from '../http/response-body.js';
import type { RequestOptions, ServiceConnection } from '../http/service-connection.js';
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
import { type CatalogToolResponse, callMcp } from './catalog-search.js';
import { type RpcId, rpcBody } from './json-rpc.js';

/** Pages of `tools/list` read at most: a server looping on its cursor cannot hold the call. */
const TOOL_PAGES_MAX = 10;
const LIST = 'catalog.tools';

/** The names the MCP endpoint lists (`tools/list`, every page), in its order. Retried. */
export async function listCatalogTools(
  connection: ServiceConnection,
  nextId: () => RpcId,
  options: RequestOptions = {},
): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null | undefined;
  for (let page = 0; page < TOOL_PAGES_MAX && cursor !== null; page++) {
    const params = cursor === undefined ? '{}' : JSON.stringify({ cursor });
    const list = await callMcp(
      connection,
      nextId,
      {
        operation: LIST,
        body: (id) => rpcBody(id, 'tools/list', params),
        read: (result) => parseResponse(ToolsListResultSchema, result, LIST),
      },
      options,
    );
    names.push(...list.tools.map((tool) => tool.name));
    cursor = list.nextCursor ?? null;
  }
  return [...new Set(names)];
}

/** `lookup_catalog`: products by id and/or retailer page URL (see `callCatalogTool`). */
export const LOOKUP = {
  operation: 'catalog.lookup',
  tool: LOOKUP_CATALOG_TOOL,
  args: LookupCatalogArgumentsSchema,
  result: CatalogLookupResultSchema,
};
/** `get_product`: one product, its offers narrowed by the selected options. */
export const GET_PRODUCT = {
  operation: 'catalog.getProduct',
  tool: GET_PRODUCT_TOOL,
  args: GetProductArgumentsSchema,
  result: GetProductResultSchema,
};

/** The parsed `lookup_catalog` answer (products, `messages[]` with `not_found`) and the tier. */
export type CatalogLookupResponse = CatalogToolResponse<CatalogLookupResult>;
/** The parsed `get_product` answer (`product`, or `messages[]` with `not_found`) and the tier. */
export type GetProductResponse = CatalogToolResponse<GetProductResult>;
