import { ConfigurationError, formatMinorUnits, type Price } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ScriptedModel, toolOutputsSeen } from '../demo/scripted-model.js';
import { catalogToolOutputOf, createCatalogTools, defineCatalogTool } from '../src/index.js';

/** An application's own read-only tool. */
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

/** An application's own tool that changes data. */
const archiveCollection = defineCatalogTool({
  name: 'archive_collection',
  description: () => 'Archive one of the user’s collections, when the user asked for it.',
  inputSchema: z.strictObject({ collection_id: z.string().describe('The collection id.') }),
  mutates: true,
  execute: (input, { client, signal }) =>
    client.collections.update(input.collection_id, { name: 'Archived' }, { signal }),
  toModelOutput: (collection) => `Archived ${collection.collection_id}`,
});

/** A tool whose schema OpenAI strict mode refuses (an optional field). */
const looseLookup = defineCatalogTool({
  name: 'loose_lookup',
  description: () => 'Looks something up.',
  inputSchema: z.strictObject({ query: z.string().optional().describe('What.') }),
  mutates: false,
  execute: async (input) => `found ${input.query ?? 'nothing'}`,
  toModelOutput: (text) => text,
});

let emulator: RunningEmulator;

beforeAll(async () => {
  setTracingDisabled(true);
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

const clientOptions = () => ({
  apiKey: emulator.keys.valid,
  baseUrl: emulator.baseUrl,
  mcpUrl: emulator.mcpUrl,
});

describe('your own tools (the tools option) in the Agents SDK run loop', () => {
  it('run like the built-ins: compact text, full result, approval when they change data', async () => {
    const tools = createCatalogTools({
      clientOptions: clientOptions(),
      tools: [cheapestOffers, archiveCollection],
      include: ['cheapest_offers', 'archive_collection'],
    });
    expect(tools.map((tool) => tool.name)).toEqual(['cheapest_offers', 'archive_collection']);
    const model = new ScriptedModel([
      () => [{ name: 'cheapest_offers', input: { query: 'rain jacket' } }],
      () => [{ name: 'archive_collection', input: { collection_id: 'col_summer' } }],
    ]);
    const agent = new Agent({ name: 'Shopper', instructions: 'Help.', model, tools });

    const first = await run(agent, 'Cheapest rain jacket, then archive my Summer collection');
    const prices = first.newItems.map((item) => catalogToolOutputOf<Price[]>(item)).find(Boolean);
    const amounts = prices?.map((price) => price.amount) ?? [];
    expect(amounts.length).toBeGreaterThan(1);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    expect(toolOutputsSeen(model.requests[1]).get('call_0_0')).toBe(
      prices?.map(formatMinorUnits).join(', '),
    );

    // archive_collection changes data: it waits for the user.
    expect(first.interruptions.map((item) => item.name)).toEqual(['archive_collection']);
    expect(emulator.state.collections.get('col_summer')?.name).toBe('Summer');
    const [approval] = first.interruptions;
    if (!approval) throw new Error('no interruption');
    first.state.approve(approval);
    const resumed = await run(agent, first.state);
    expect(emulator.state.collections.get('col_summer')?.name).toBe('Archived');
    expect(toolOutputsSeen(model.requests.at(-1)).get('call_1_0')).toBe('Archived col_summer');
    expect(resumed.finalOutput).toBe('Done.');
  });

  it('must pass OpenAI strict mode, unless strict is false (then tools are sent non-strict)', async () => {
    expect(() =>
      createCatalogTools({ clientOptions: clientOptions(), tools: [looseLookup] }),
    ).toThrowError(ConfigurationError);
    const tools = createCatalogTools({
      clientOptions: clientOptions(),
      tools: [looseLookup],
      include: ['loose_lookup', 'search_websites'],
      strict: false,
    });
    const model = new ScriptedModel([() => [{ name: 'loose_lookup', input: { query: 'x' } }]]);
    const agent = new Agent({ name: 'Shopper', instructions: 'Help.', model, tools });
    await run(agent, 'look up x');
    expect(
      model.requests[0]?.tools.map((tool) => [tool.name, 'strict' in tool && tool.strict]),
    ).toEqual([
      ['search_websites', false],
      ['loose_lookup', false],
    ]);
    expect(toolOutputsSeen(model.requests[1]).get('call_0_0')).toBe('found x');
  });
});
