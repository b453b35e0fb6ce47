import { Agent, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import {
  archiveCollection,
  type ComparePricesOutput,
  comparePrices,
  looseTool,
  offersView,
} from '../../core/test/support/custom-tools.js';
import { ScriptedModel, toolOutputsSeen } from '../demo/scripted-model.js';
import { catalogToolOutputOf, createCatalogTools } from '../src/index.js';
import { useOfflineEmulator } from './support/offline-emulator.js';

const { emulator, clientOptions } = useOfflineEmulator();

// The custom tools every adapter's tests use: compare_prices (read-only), archive_collection
// (changes data), loose_lookup (a schema strict mode refuses).

describe('your own tools (the tools option) in the Agents SDK run loop', () => {
  it('run like the built-ins: compact text, full result, approval when they change data', async () => {
    const tools = createCatalogTools({
      clientOptions: clientOptions(),
      tools: [comparePrices, archiveCollection],
      include: ['compare_prices', 'archive_collection'],
    });
    expect(tools.map((tool) => tool.name)).toEqual(['compare_prices', 'archive_collection']);
    const model = new ScriptedModel([
      () => [{ name: 'compare_prices', input: { query: 'rain jacket', limit: 3 } }],
      () => [{ name: 'archive_collection', input: { collection_id: 'col_summer' } }],
    ]);
    const agent = new Agent({ name: 'Shopper', instructions: 'Help.', model, tools });

    const first = await run(agent, 'Cheapest rain jacket, then archive my Summer collection');
    const output = first.newItems
      .map((item) => catalogToolOutputOf<ComparePricesOutput>(item))
      .find(Boolean);
    if (!output) throw new Error('no compare_prices result');
    // The one shape for your own tools too: what was asked, what came back.
    expect(Object.keys(output)).toEqual(['request', 'response']);
    expect(output.request).toEqual({ query: 'rain jacket', pagination: { limit: 3 } });
    const amounts = output.response.map((offer) => offer.price.amount);
    expect(amounts.length).toBeGreaterThan(1);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    // The model read the tool's own view of that very result.
    expect(toolOutputsSeen(model.requests[1]).get('call_0_0')).toBe(offersView(output));

    // archive_collection changes data: it waits for the user.
    expect(first.interruptions.map((item) => item.name)).toEqual(['archive_collection']);
    expect(emulator().state.collections.get('col_summer')?.name).toBe('Summer');
    const [approval] = first.interruptions;
    if (!approval) throw new Error('no interruption');
    first.state.approve(approval);
    const resumed = await run(agent, first.state);
    expect(emulator().state.collections.get('col_summer')?.name).toBe('Archived');
    expect(toolOutputsSeen(model.requests.at(-1)).get('call_1_0')).toBe('Archived col_summer');
    expect(resumed.finalOutput).toBe('Done.');
  });

  it('with strict false, every tool is sent non-strict (a schema strict mode refuses too)', async () => {
    const tools = createCatalogTools({
      clientOptions: clientOptions(),
      tools: [looseTool],
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
    expect(toolOutputsSeen(model.requests[1]).get('call_0_0')).toBe('x');
  });
});
