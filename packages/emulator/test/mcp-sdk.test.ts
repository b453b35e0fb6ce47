import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpResponseMode, RunningEmulator } from '../src/index.js';
import { start } from './helpers.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(
  emulator: RunningEmulator,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'emulator-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${emulator.mcpUrl}/mcp`), {
      requestInit: { headers },
    }),
  );
  return client;
}

describe.each<McpResponseMode>(['sse', 'json'])(
  'official SDK Client (%s answers)',
  (mcpResponse) => {
    it('initializes, lists the catalog tools with their input schemas, and calls search', async () => {
      const emulator = await start({ mcpResponse });
      const client = await connect(emulator, { 'x-api-key': emulator.keys.valid });
      expect(client.getServerVersion()?.name).toBe('catalogkit-emulator');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'search_catalog',
        'lookup_catalog',
        'get_product',
      ]);
      for (const tool of tools) expect(tool.inputSchema.required).toEqual(['meta', 'catalog']);
      const result = await client.callTool({
        name: 'search_catalog',
        arguments: {
          meta: null,
          catalog: {
            query: 'trail running shoes',
            pagination: { limit: 3 },
            placements: ['affiliate'],
          },
        },
      });
      const content = result.structuredContent as {
        products: { variants: { url: string; placement?: unknown }[] }[];
      };
      expect(content.products).toHaveLength(3);
      expect(content.products[0]?.variants[0]?.url).toMatch(/^https:\/\/go\.catalogkit\.test\//);
      expect(content.products[0]?.variants[0]?.placement).toBeDefined();
      expect(emulator.stats.count('POST /mcp initialize')).toBe(1);
      expect(emulator.stats.count('POST /mcp tools/list')).toBe(1);
      expect(emulator.stats.count('POST /mcp tools/call')).toBe(1);
    });

    it('reports bad arguments as a tool error, not a transport failure', async () => {
      const emulator = await start({ mcpResponse });
      const client = await connect(emulator);
      const result = await client.callTool({
        name: 'search_catalog',
        arguments: { meta: null, catalog: { query: '' } },
      });
      expect(result.isError).toBe(true);
    });
  },
);
