import { ConfigurationError, defineCatalogTool, formatMinorUnits } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { textOf } from './support/inputs.js';

/** An application's own read-only tool; its result is an array (no structuredContent). */
const cheapestOffers = defineCatalogTool({
  name: 'cheapest_offers',
  description: (names) =>
    `Offers for a product, cheapest first. ${names.search_catalog} gives details.`,
  inputSchema: z.strictObject({ query: z.string().describe('The product.') }),
  mutates: false,
  async execute(input, { client, signal }) {
    const { result } = await client.catalog.search(
      { query: input.query, pagination: { limit: 3 } },
      { signal },
    );
    const prices = result.products.flatMap((product) =>
      product.variants.flatMap((variant) => (variant.price ? [variant.price] : [])),
    );
    return prices.sort((a, b) => a.amount - b.amount);
  },
  toModelOutput: (prices) => prices.map(formatMinorUnits).join(', '),
});

/** An application's own tool that changes data; its result is an object. */
const archiveCollection = defineCatalogTool({
  name: 'archive_collection',
  description: () => 'Archive one of the user’s collections, when the user asked for it.',
  inputSchema: z.strictObject({ collection_id: z.string().describe('The collection id.') }),
  mutates: true,
  execute: (input, { client, signal }) =>
    client.collections.update(input.collection_id, { name: 'Archived' }, { signal }),
  toModelOutput: (collection) => `Archived ${collection.collection_id}`,
});

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
        tools: [cheapestOffers, archiveCollection],
        include: ['search_catalog', 'cheapest_offers', 'archive_collection'],
      }),
    );
    const { client } = await connectHttpClient(host.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint])).toEqual([
        ['search_catalog', true],
        ['cheapest_offers', true],
        ['archive_collection', false],
      ]);
      // Nothing is claimed about the shape of their results.
      expect(tools[1]?.outputSchema).toBeUndefined();
      expect(tools[1]?.description).toContain('search_catalog gives details');

      const offers = await client.callTool({
        name: 'cheapest_offers',
        arguments: { query: 'rain jacket' },
      });
      expect(offers.isError).toBeFalsy();
      expect(textOf(offers)).toMatch(/^\$\d+\.\d\d(, \$\d+\.\d\d)+$/);
      expect(offers.structuredContent).toBeUndefined();

      const archived = await client.callTool({
        name: 'archive_collection',
        arguments: { collection_id: 'col_summer' },
      });
      expect(textOf(archived)).toBe('Archived col_summer');
      expect(archived.structuredContent).toMatchObject({
        collection_id: 'col_summer',
        name: 'Archived',
      });
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Archived');

      const refused = await client.callTool({ name: 'cheapest_offers', arguments: { query: 7 } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Invalid arguments: query: /);
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('must pass OpenAI strict mode unless strict is false', () => {
    const loose = defineCatalogTool({
      name: 'loose_lookup',
      description: () => 'Looks something up.',
      inputSchema: z.strictObject({ query: z.string().optional().describe('What.') }),
      mutates: false,
      execute: async (input) => input.query ?? '',
      toModelOutput: (text) => text,
    });
    const clientOptions = {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    };
    expect(() => createCatalogMcpHandler({ clientOptions, tools: [loose] })).toThrowError(
      ConfigurationError,
    );
    expect(() =>
      createCatalogMcpHandler({ clientOptions, tools: [loose], strict: false }),
    ).not.toThrow();
  });
});
