import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, type MountedHandler, mountInHono } from './support/http-host.js';

// A real host that checks arguments against the advertised schema on its side, before the call
// leaves: `@langchain/mcp-adapters` turns the listed tools into LangChain tools whose input
// schema is the advertised JSON Schema.
let emulator: RunningEmulator;
let mounted: MountedHandler;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  mounted = await mountInHono(
    createCatalogMcpHandler({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
    }),
  );
});

afterAll(async () => {
  await mounted?.close();
  await emulator?.close();
});

async function langChainTool(name: string) {
  const { client } = await connectHttpClient(mounted.url);
  const tools = await loadMcpTools('catalogkit', client);
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`${name} is not among ${tools.map((t) => t.name).join(', ')}`);
  return { tool, close: () => client.close() };
}

describe('through @langchain/mcp-adapters', () => {
  it('search_catalog takes { query } alone: optional fields may be left out', async () => {
    const { tool, close } = await langChainTool('search_catalog');
    try {
      const text = JSON.stringify(await tool.invoke({ query: 'rain jacket' }));
      expect(text).toMatch(/\d+ of \d+ products/);
    } finally {
      await close();
    }
  });

  it('search_websites takes { query } alone too, and still refuses a wrong type', async () => {
    const { tool, close } = await langChainTool('search_websites');
    try {
      expect(JSON.stringify(await tool.invoke({ query: 'Birch Market' }))).toMatch(/Birch Market/);
      await expect(tool.invoke({ query: 'Birch Market', limit: 'many' })).rejects.toThrow();
    } finally {
      await close();
    }
  });
});
