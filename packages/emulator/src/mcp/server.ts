import {
  GET_PRODUCT_TOOL,
  GetProductArgumentsSchema,
  LOOKUP_CATALOG_TOOL,
  LookupCatalogArgumentsSchema,
  SEARCH_CATALOG_TOOL,
  SearchCatalogArgumentsSchema,
} from '@catalogkit/core/schemas';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CatalogData } from '../data/index.js';
import { getProductResult, lookupCatalogResult } from './lookup-tools.js';
import { type Caller, searchCatalogResult } from './search-tool.js';

export const SERVER_INFO = { name: 'catalogkit-emulator', version: '0.0.0' } as const;

/**
 * One JSON Schema validator for every per-request server: by default each server builds
 * its own Ajv instance, which costs more than answering the request. It holds no
 * per-request state (only compiled schemas), so sharing it is safe.
 */
const sharedValidator = new AjvJsonSchemaValidator();

const DESCRIPTION =
  'Search the product catalog. Give what the shopper wants in plain words in catalog.query ' +
  '(price limits such as "under $120" and a country such as "in GB" are understood); ' +
  'variants[].url is the buy link. Add "affiliate" to catalog.placements for commission data.';

const LOOKUP_DESCRIPTION =
  'Look up products by id (catalog.ids: product or offer ids) or by retailer page URL ' +
  '(catalog.urls). Unknown ones come back as messages with code not_found.';
const GET_PRODUCT_DESCRIPTION =
  'One product by product or offer id (catalog.id), with its offers narrowed by the options ' +
  'chosen (catalog.selected, e.g. [{"name":"Color","label":"Black"}]) and their priority ' +
  '(catalog.preferences).';

/** A tool answer: `structuredContent` and its JSON copy as text (older clients read that). */
const answer = (result: Record<string, unknown>) => ({
  structuredContent: result,
  content: [{ type: 'text' as const, text: JSON.stringify(result) }],
});

/** What one request's server serves: the caller, the origin asked and the tools offered. */
export interface McpServerSettings {
  caller: Caller;
  /** The origin the request came to: product image paths become URLs on it. */
  origin?: string;
  /** Whether `lookup_catalog` and `get_product` are offered (listed and callable). */
  lookupTools: boolean;
}

/**
 * A fresh MCP server for one request (stateless mode: nothing is shared between
 * requests, so the caller's tier and the origin asked are simply captured here).
 */
export function createMcpServer(data: CatalogData, settings: McpServerSettings): McpServer {
  const { caller, origin } = settings;
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    jsonSchemaValidator: sharedValidator,
  });
  server.registerTool(
    SEARCH_CATALOG_TOOL,
    {
      title: 'Search catalog',
      description: DESCRIPTION,
      inputSchema: SearchCatalogArgumentsSchema,
    },
    async (args) => answer(searchCatalogResult(data, args, caller, origin)),
  );
  if (!settings.lookupTools) return server;
  const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
  server.registerTool(
    LOOKUP_CATALOG_TOOL,
    {
      title: 'Look up catalog',
      description: LOOKUP_DESCRIPTION,
      inputSchema: LookupCatalogArgumentsSchema,
      annotations: readOnly,
    },
    async (args) => answer(lookupCatalogResult(data, args, caller, origin)),
  );
  server.registerTool(
    GET_PRODUCT_TOOL,
    {
      title: 'Get product',
      description: GET_PRODUCT_DESCRIPTION,
      inputSchema: GetProductArgumentsSchema,
      annotations: readOnly,
    },
    async (args) => answer(getProductResult(data, args, caller, origin)),
  );
  return server;
}
