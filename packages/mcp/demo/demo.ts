/**
 * `pnpm --filter @catalogkit/mcp demo`: an MCP host's view of the server, offline. It starts
 * the emulator, runs the stdio bin the way Claude Desktop or Cursor would (configured only by
 * CATALOG_* variables), lists the tools and calls two of them with the official SDK client.
 */
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@catalogkit/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const emulator = await startEmulator({ port: 0 });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--conditions=@catalogkit/source', '--import', 'tsx', 'src/cli.ts'],
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  env: {
    CATALOG_API_KEY: emulator.keys.valid,
    CATALOG_BASE_URL: emulator.baseUrl,
    CATALOG_MCP_URL: emulator.mcpUrl,
  },
});
// A host that can ask the user (form elicitation): the server confirms changes through it.
const client = new Client(
  { name: 'catalogkit-mcp-demo', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } } },
);
client.setRequestHandler(ElicitRequestSchema, (request) => {
  process.stdout.write(
    `\n→ the host asks the user:\n${request.params.message}\n→ the user accepts\n`,
  );
  return { action: 'accept', content: {} };
});
await client.connect(transport);

try {
  const { tools } = await client.listTools();
  for (const tool of tools)
    process.stdout.write(`tool ${tool.name} ${JSON.stringify(tool.annotations)}\n`);

  const search = await client.callTool({
    name: 'search_catalog',
    arguments: { query: 'trail running shoes', limit: 2, cursor: null, placements: ['affiliate'] },
  });
  const [first] = search.content as { type: 'text'; text: string }[];
  process.stdout.write(`\n→ search_catalog: content (what the model reads)\n${first?.text}\n`);
  // The one shape of every tool's result: what was asked, what came back, and the tier.
  const full = search.structuredContent as { tier: string; response: { products: unknown[] } };
  process.stdout.write(
    `→ structuredContent: tier ${full.tier}, ${full.response.products.length} products in full\n`,
  );

  const refused = await client.callTool({
    name: 'update_collection',
    arguments: {
      collection_id: 'col_nope',
      name: 'Beach',
      description: null,
      add_clauses: null,
      replace_clauses: null,
      remove_clause_ids: null,
    },
  });
  const [reason] = refused.content as { type: 'text'; text: string }[];
  process.stdout.write(`\n→ update_collection (isError ${refused.isError}): ${reason?.text}\n`);
} finally {
  await client.close();
  await emulator.close();
}
