#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCatalogMcpServer } from './server.js';

/**
 * `npx @catalogkit/mcp`: the catalog tools over stdio for MCP hosts (Claude Desktop, Cursor,
 * ...). The client reads CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL from the
 * environment the host gives it. stdout carries the protocol, so messages go to stderr.
 */
async function main(): Promise<void> {
  const server = createCatalogMcpServer();
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `catalogkit-mcp: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
