import { SEARCH_CATALOG_TOOL, SearchCatalogArgumentsSchema } from '@catalogkit/core/schemas';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CatalogData } from '../data/index.js';
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

/**
 * A fresh MCP server for one request (stateless mode: nothing is shared between
 * requests, so the caller's tier and the origin asked are simply captured here).
 */
export function createMcpServer(data: CatalogData, caller: Caller, origin?: string): McpServer {
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
    async (args) => {
      const result = searchCatalogResult(data, args, caller, origin);
      return {
        structuredContent: result,
        content: [{ type: 'text', text: JSON.stringify(result) }],
      };
    },
  );
  return server;
}
