import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveCollection,
  comparePrices,
  looseTool,
} from '../../core/test/support/custom-tools.js';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { textOf } from './support/inputs.js';

// The custom tools every adapter's tests use: compare_prices (read-only), archive_collection
// (changes data). Both return the one shape, { request, response }, as structuredContent.

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

describe('your own tools (the tools option) on the MCP server', () => {
  it('are served beside the built-ins, annotated from what their definitions say', async () => {
    const host = await mountInHono(
      createCatalogMcpHandler({
        clientOptions: {
          apiKey: emulator.keys.valid,
          baseUrl: emulator.baseUrl,
          mcpUrl: emulator.mcpUrl,
        },
        tools: [comparePrices, archiveCollection],
        include: ['search_catalog', 'compare_prices', 'archive_collection'],
        // This HTTP client cannot confirm: the operator accepts unconfirmed changes.
        confirmChanges: 'annotations-only',
      }),
    );
    const { client } = await connectHttpClient(host.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
        ['search_catalog', true],
        ['compare_prices', true],
        ['archive_collection', false],
      ]);
      // Nothing is claimed about the shape of their results.
      expect(tools[1]?.outputSchema).toBeUndefined();
      expect(tools[1]?.description).toContain('search_catalog gives full product details');

      const offers = await client.callTool({
        name: 'compare_prices',
        arguments: { query: 'rain jacket', limit: 3 },
      });
      expect(offers.isError).toBeFalsy();
      const offered = offers.structuredContent as { request: unknown; response: unknown[] };
      expect(Object.keys(offered)).toEqual(['request', 'response']);
      expect(offered.request).toEqual({ query: 'rain jacket', pagination: { limit: 3 } });
      expect(offered.response.length).toBeGreaterThan(1);
      const lines = textOf(offers).split('\n');
      expect(lines.length).toBeGreaterThan(1);
      // The tool's own view, buy links as sent.
      expect(lines.every((line) => /\| https:\/\/\S+$/.test(line))).toBe(true);

      const archived = await client.callTool({
        name: 'archive_collection',
        arguments: { collection_id: 'col_summer' },
      });
      expect(textOf(archived)).toBe('Archived col_summer');
      expect(archived.structuredContent).toStrictEqual({
        request: { collectionId: 'col_summer', update: { name: 'Archived' } },
        response: emulator.state.collections.get('col_summer'),
      });
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Archived');

      const refused = await client.callTool({
        name: 'compare_prices',
        arguments: { query: 7, limit: null },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Invalid arguments: query: /);
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('may have a schema OpenAI strict mode would refuse: MCP has no strict mode', () => {
    const clientOptions = {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    };
    expect(() => createCatalogMcpHandler({ clientOptions, tools: [looseTool] })).not.toThrow();
  });
});
