import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { searchCatalog, textOf, updateCollection } from './support/inputs.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bin as a host starts it: a separate process speaking MCP on stdio, configured only by
 * the environment. It runs from source (tsx, with the workspace's source condition).
 */
async function startBin(
  env: Record<string, string>,
): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=@catalogkit/source', '--import', 'tsx', 'src/cli.ts'],
    cwd: packageDir,
    env,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const client = new Client({ name: 'catalogkit-test-host', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr };
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

describe('the stdio bin (npx @catalogkit/mcp)', () => {
  it('serves the tools configured by CATALOG_* variables', async () => {
    const { client, stderr } = await startBin({
      CATALOG_API_KEY: emulator.keys.valid,
      CATALOG_BASE_URL: emulator.baseUrl,
      CATALOG_MCP_URL: emulator.mcpUrl,
    });
    try {
      expect(client.getServerVersion()).toEqual({
        name: 'catalogkit',
        version: packageJson.version,
      });
      // Tools only: the list never changes, so no list_changed notifications are promised.
      expect(client.getServerCapabilities()).toEqual({ tools: {} });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'search_catalog',
        'search_websites',
        'update_collection',
      ]);
      const catalog = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog('trail running shoes', { placements: ['affiliate'] }),
      });
      expect(catalog.structuredContent).toMatchObject({ tier: 'token' });
      const products = (catalog.structuredContent as { result: { products: unknown[] } }).result
        .products;
      expect(products).toHaveLength(3);
      expect(textOf(catalog)).toMatch(/^3 of \d+ products for "trail running shoes"/);

      const renamed = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer', { name: 'Beach' }),
      });
      expect(renamed.isError).toBeFalsy();
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Beach');

      const refused = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_nope', { name: 'X' }),
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Not found: Collection not found\./);
      expect(JSON.stringify([tools, catalog, renamed, refused])).not.toContain(emulator.keys.valid);
      expect(stderr.join('')).toBe('');
    } finally {
      await client.close();
    }
  });

  it('reports a missing configuration to the host as a protocol error on the call', async () => {
    const { client } = await startBin({ CATALOG_MCP_URL: emulator.mcpUrl });
    try {
      // No CATALOG_BASE_URL: the REST tools cannot run; the catalog search still can.
      await expect(
        client.callTool({
          name: 'update_collection',
          arguments: updateCollection('col_summer', { name: 'Beach' }),
        }),
      ).rejects.toThrow(/base ?URL|CATALOG_BASE_URL/i);
      const anonymous = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog('rain jacket'),
      });
      expect(anonymous.structuredContent).toMatchObject({ tier: 'anonymous' });
    } finally {
      await client.close();
    }
  });
});
