import {
  CatalogClient,
  ConfigurationError,
  defineCatalogTool,
  type SearchCatalogOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { startEmulator } from '@catalogkit/emulator';
import { Agent, RunState, run, ToolCallError } from '@openai/agents';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { expectOneShape, SHAPE_INPUTS } from '../../core/test/support/one-shape.js';
import {
  searchCatalog,
  searchWebsites,
  updateCollection,
} from '../../core/test/support/strict-inputs.js';
import { openAiStrictProblems } from '../../testing/src/stand-ins/schema-rules.js';
import { ScriptedModel, type Turn, toolOutputsSeen } from '../demo/scripted-model.js';
import { catalogToolOutputOf, createCatalogTools } from '../src/index.js';
import { useOfflineEmulator } from './support/offline-emulator.js';

const { emulator, clientOptions } = useOfflineEmulator();

const PATCH = 'PATCH /v1/collections/:collection_id';

afterEach(() => {
  vi.unstubAllEnvs();
});

function shopper(turns: Turn[], tools = createCatalogTools({ clientOptions: clientOptions() })) {
  const model = new ScriptedModel(turns);
  const agent = new Agent({ name: 'Shopper', instructions: 'Help the shopper.', model, tools });
  return { agent, model };
}

describe('createCatalogTools in the Agents SDK run loop', () => {
  it('gives the model compact text and the application the full results', async () => {
    const tools = createCatalogTools({
      clientOptions: clientOptions(),
      defaults: { placements: ['affiliate'] },
    });
    const { agent, model } = shopper(
      [
        () => [{ name: 'search_catalog', input: searchCatalog('trail running shoes') }],
        () => [{ name: 'search_websites', input: searchWebsites('outdoor', { country: 'GB' }) }],
      ],
      tools,
    );
    const result = await run(agent, 'Find trail running shoes');
    expect(result.finalOutput).toBe('Done.');

    // What the model was offered: the three tools, strict, with their catalog descriptions.
    const offered = model.requests[0]?.tools ?? [];
    expect(offered.map((tool) => tool.name)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
    ]);
    for (const tool of offered) {
      expect(tool).toMatchObject({ type: 'function', strict: true });
      // The schema sent to the provider passes OpenAI strict mode.
      expect(openAiStrictProblems(tool.type === 'function' ? tool.parameters : null)).toEqual([]);
    }

    // What the application gets: the full results, on the tool output items.
    const outputs = result.newItems
      .map(catalogToolOutputOf)
      .filter((output) => output !== undefined);
    expect(outputs).toHaveLength(2);
    const catalog = outputs[0] as SearchCatalogOutput;
    expect(catalog.tier).toBe('token');
    expect(catalog.request.placements).toEqual(['affiliate']);
    expect(catalog.response.products).toHaveLength(3);

    // What the model read: compact text with a reference per buy link (the default), no link.
    const seen = toolOutputsSeen(model.requests[1]).get('call_0_0') ?? '';
    for (const variant of catalog.response.products.flatMap((product) => product.variants)) {
      expect(seen).toContain(buyLinkReference(variant.url!));
    }
    expect(seen).not.toMatch(/https?:/i);
    expect(seen.length).toBeLessThan(JSON.stringify(catalog.response).length / 2);
    expect(toolOutputsSeen(model.requests[2]).get('call_1_0')).toMatch(
      /^2 websites for "outdoor" \(commission rates for GB\)\./,
    );
    expect(JSON.stringify(model.requests)).not.toContain(emulator().keys.valid);
  });

  it('hands the application the one output shape, { request, response, tier? }, as custom data', async () => {
    // An emulator of its own: the update must not count in the other tests' collection.
    const own = await startEmulator({ port: 0 });
    try {
      const tools = createCatalogTools({ clientOptions: clientOptions(own), needsApproval: false });
      const { agent } = shopper(
        [
          () => [{ name: 'search_catalog', input: SHAPE_INPUTS.search_catalog }],
          () => [{ name: 'search_websites', input: SHAPE_INPUTS.search_websites }],
          () => [{ name: 'update_collection', input: SHAPE_INPUTS.update_collection }],
        ],
        tools,
      );
      const result = await run(agent, 'Trail shoes, outdoor retailers, rename my collection');
      const [catalog, websites, update] = result.newItems
        .map(catalogToolOutputOf)
        .filter((output) => output !== undefined);
      await expectOneShape(
        { search_catalog: catalog, search_websites: websites, update_collection: update },
        new CatalogClient(clientOptions(own)),
        own.state.collections.get('col_summer'),
      );
    } finally {
      await own.close();
    }
  });

  it('tells the model what failed through the error function, naming the field', async () => {
    const tools = createCatalogTools({ clientOptions: clientOptions(), needsApproval: false });
    const { agent, model } = shopper(
      [
        () => [
          { name: 'search_websites', input: searchWebsites('x'.repeat(201)) },
          { name: 'search_websites', input: searchWebsites('outdoor', { limit: 'ten' }) },
          { name: 'update_collection', input: updateCollection('col_nope', { name: 'X' }) },
        ],
      ],
      tools,
    );
    const result = await run(agent, 'Try things');
    expect(result.finalOutput).toBe('Done.');
    const seen = toolOutputsSeen(model.requests[1]);
    expect(seen.get('call_0_0')).toBe(
      'Invalid arguments: query: must be at most 200 characters. Fix these fields and call the tool again.',
    );
    expect(seen.get('call_0_1')).toMatch(/^Invalid arguments: limit: .+ Fix these fields/);
    expect(seen.get('call_0_2')).toBe(
      'Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
    );
    expect(result.newItems.map(catalogToolOutputOf).filter(Boolean)).toEqual([]);
  });

  it('tells the model when the daily rate limit resets', async () => {
    const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
    try {
      const search = { name: 'search_catalog', input: searchCatalog('rain jacket') };
      const { agent, model } = shopper(
        [() => [search], () => [search]],
        createCatalogTools({ clientOptions: clientOptions(limited) }),
      );
      await run(agent, 'jackets');
      expect(toolOutputsSeen(model.requests[2]).get('call_1_0')).toMatch(
        /^Rate limit of the catalog service reached \(limits are daily, per UTC day\)\. It resets at \d{4}-\d\d-\d\dT00:00Z/,
      );
    } finally {
      await limited.close();
    }
  });

  it('makes the tools with no settings (a build needs none): they are checked at the first call', () => {
    // No base URL anywhere, whatever the environment running the tests says. The first call's
    // ConfigurationError is core's (packages/core/test/tools-first-hour.test.ts).
    vi.stubEnv('CATALOG_BASE_URL', '');
    expect(() =>
      createCatalogTools({
        clientOptions: { apiKey: emulator().keys.valid, mcpUrl: emulator().mcpUrl },
      }),
    ).not.toThrow();
  });

  it('ends the run on errors that are not the model’s to handle', async () => {
    const misconfigured = defineCatalogTool({
      name: 'export_collection',
      description: () => 'Exports a collection.',
      inputSchema: z.strictObject({ collection_id: z.string().describe('The collection.') }),
      mutates: false,
      execute: async () => {
        throw new ConfigurationError('export_collection needs an export URL');
      },
      toModelOutput: () => 'exported',
    });
    const tools = createCatalogTools({
      clientOptions: clientOptions(),
      include: ['export_collection'],
      tools: [misconfigured],
    });
    const { agent } = shopper(
      [() => [{ name: 'export_collection', input: { collection_id: 'col_summer' } }]],
      tools,
    );
    const failure = await run(agent, 'export').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolCallError);
    expect((failure as ToolCallError).error).toBeInstanceOf(ConfigurationError);
  });
});

describe('approval of update_collection', () => {
  const rename = () => [
    { name: 'update_collection', input: updateCollection('col_summer', { name: 'Beach' }) },
  ];

  beforeEach(() => {
    emulator().stats.reset();
    const summer = emulator().state.collections.get('col_summer');
    if (summer) summer.name = 'Summer';
  });

  it('interrupts the run; state.approve() resumes it and the update is applied once', async () => {
    const { agent, model } = shopper([rename]);
    const first = await run(agent, 'Rename my Summer collection to Beach');
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]?.name).toBe('update_collection');
    expect(emulator().stats.count(PATCH)).toBe(0);
    expect(emulator().state.collections.get('col_summer')?.name).toBe('Summer');

    // The state is kept as a string until the user answers (another request), then approved.
    const state = await RunState.fromString(agent, first.state.toString());
    const [approval] = state.getInterruptions();
    if (!approval) throw new Error('no interruption in the restored state');
    state.approve(approval);
    const resumed = await run(agent, state);

    expect(resumed.finalOutput).toBe('Done.');
    expect(emulator().stats.count(PATCH)).toBe(1);
    expect(emulator().state.collections.get('col_summer')?.name).toBe('Beach');
    const seen = toolOutputsSeen(model.requests.at(-1)).get('call_0_0');
    expect(seen).toMatch(/^Updated collection "Beach" \(collection_id col_summer\)/);
    const output = resumed.newItems
      .map(catalogToolOutputOf)
      .find(Boolean) as UpdateCollectionOutput;
    expect(output.response.name).toBe('Beach');
  });

  it('applies nothing when the user refuses, and the model is told', async () => {
    const { agent, model } = shopper([rename]);
    const first = await run(agent, 'Rename my Summer collection to Beach');
    const [approval] = first.interruptions;
    if (!approval) throw new Error('no interruption');
    first.state.reject(approval);
    const resumed = await run(agent, first.state);

    expect(resumed.finalOutput).toBe('Done.');
    expect(emulator().stats.count(PATCH)).toBe(0);
    expect(emulator().state.collections.get('col_summer')?.name).toBe('Summer');
    expect(toolOutputsSeen(model.requests.at(-1)).get('call_0_0')).toBe(
      'Tool execution was not approved.',
    );
  });

  it('runs the update without asking when needsApproval is false', async () => {
    const tools = createCatalogTools({ clientOptions: clientOptions(), needsApproval: false });
    const { agent } = shopper([rename], tools);
    const result = await run(agent, 'Rename my Summer collection to Beach');
    expect(result.interruptions).toEqual([]);
    expect(emulator().stats.count(PATCH)).toBe(1);
  });
});
