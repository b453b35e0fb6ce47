import {
  CatalogClient,
  RateLimitError,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveCollection,
  type ComparePricesOutput,
  comparePrices,
  looseTool,
  offersView,
} from '../../../core/test/support/custom-tools.js';
import { expectOneShape, SHAPE_INPUTS } from '../../../core/test/support/one-shape.js';
import { openAiStrictProblems } from '../../../testing/src/stand-ins/schema-rules.js';
import { CatalogToolCallError, createCatalogTools } from '../../src/index.js';
import { type AiSdkHarness, type GenerateOutcome, toolOutputsSeen } from './harness.js';

const noChange = {
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};
const userSays = (text: string) => [{ role: 'user', content: text }];

/** The error a step reports for a tool call (`tool-error` content part). */
function toolErrorOf(outcome: GenerateOutcome, step: number, toolCallId: string): unknown {
  const part = outcome.result.steps[step]?.content.find(
    (content) => content.type === 'tool-error' && content.toolCallId === toolCallId,
  );
  return part?.error;
}

/**
 * The adapter's framework-level tests, run against the emulator over HTTP with one major
 * version of `ai` (see the tools.ai-v*.test.ts files).
 */
export function describeCatalogTools(harness: AiSdkHarness): void {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  const clientOptions = (apiKey: string, target: RunningEmulator = emulator) => ({
    apiKey,
    baseUrl: target.baseUrl,
    mcpUrl: target.mcpUrl,
  });

  describe(`createCatalogTools with generateText of ai ${harness.major}`, () => {
    it(`runs on the ai ${harness.major} module under test`, async () => {
      // The vitest project aliases `ai`; this is the module src/ imports.
      expect(await import('ai')).toBe(harness.aiModule);
    });

    it('runs each tool in turn; the model reads compact text, the application gets full results', async () => {
      const tools = createCatalogTools({
        clientOptions: clientOptions(emulator.keys.valid),
        defaults: { placements: ['affiliate'] },
        needsApproval: false,
      });
      const outcome = await harness.generate({
        tools,
        messages: userSays('Find trail running shoes and keep one in my Summer collection.'),
        steps: [
          () => [
            {
              toolName: 'search_catalog',
              input: { query: 'trail running shoes', limit: 3, cursor: null, placements: null },
            },
          ],
          () => [
            // Both refused by the tool schema (AI SDK validation), which holds the service's rules.
            {
              toolName: 'search_websites',
              input: { query: 'outdoor', limit: 'ten', category_ids: null, country: null },
            },
            {
              toolName: 'search_websites',
              input: { query: 'x'.repeat(201), limit: null, category_ids: null, country: null },
            },
          ],
          () => [
            {
              toolName: 'search_websites',
              input: { query: 'outdoor', limit: 2, category_ids: null, country: 'GB' },
            },
          ],
          (seen) => {
            // The ids come from the text the model was shown, as a real model would read them.
            const productId = /\| (prod_\w+)/.exec(String(seen.get('call_0_0')?.value))?.[1];
            const websiteId = /website_id (\w+)/.exec(String(seen.get('call_2_0')?.value))?.[1];
            const clause = {
              brand_ids: [],
              website_ids: [websiteId ?? 'missing'],
              category_ids: [],
              product_ids: [productId ?? 'missing'],
            };
            return [
              {
                toolName: 'update_collection',
                input: { ...noChange, collection_id: 'col_summer', add_clauses: [clause] },
              },
            ];
          },
          () => [
            {
              toolName: 'update_collection',
              input: { ...noChange, collection_id: 'col_nope', name: 'X' },
            },
          ],
        ],
      });
      const { result, calls } = outcome;

      expect(result.text).toBe('Done.');
      const [catalogStep, invalidStep, websitesStep, updateStep, unknownStep] = result.steps;

      // Step 1: full result for the app, compact text for the model, buy links as references.
      const catalog = catalogStep!.toolResults[0]!.output as SearchCatalogOutput;
      expect(catalog.tier).toBe('token');
      expect(catalog.response.products).toHaveLength(3);
      const catalogSeen = toolOutputsSeen(calls[1]).get('call_0_0');
      expect(catalogSeen?.type).toBe('text');
      for (const variant of catalog.response.products.flatMap((product) => product.variants)) {
        expect(catalogSeen?.value).toContain(buyLinkReference(variant.url!));
        expect(catalogSeen?.value).not.toContain(variant.url);
      }
      expect(String(catalogSeen?.value).length).toBeLessThan(
        JSON.stringify(catalog.response).length / 2,
      );

      // Step 2: both invalid calls reach the model as errors naming the field.
      expect(invalidStep!.toolResults).toHaveLength(0);
      const invalidSeen = toolOutputsSeen(calls[2]);
      expect(invalidSeen.get('call_1_0')?.type).toBe('error-text');
      expect(String(invalidSeen.get('call_1_0')?.value)).toMatch(/limit/);
      // The tool schema checks the service's rules too, so the AI SDK's own validation
      // names the field (before anything is sent), not the client.
      expect(invalidSeen.get('call_1_1')?.type).toBe('error-text');
      expect(String(invalidSeen.get('call_1_1')?.value)).toContain(
        'must be at most 200 characters',
      );
      expect(toolErrorOf(outcome, 1, 'call_1_1')).not.toBeInstanceOf(CatalogToolCallError);

      // Step 3: the websites, then step 4: a clause built from ids the model read.
      const websites = websitesStep!.toolResults[0]!.output as SearchWebsitesOutput;
      expect(websites.request).toEqual({ query: 'outdoor', limit: 2, country: 'GB' });
      const update = updateStep!.toolResults[0]!.output as UpdateCollectionOutput;
      const added = update.response.clauses?.at(-1);
      expect(added?.product_ids).toEqual([catalog.response.products[0]!.id]);
      expect(added?.website_ids).toEqual([websites.response.websites[0]!.id]);
      expect(toolOutputsSeen(calls[4]).get('call_3_0')?.value).toContain(
        `clause_id ${added?.clause_id}`,
      );

      // Step 5: an unknown collection id.
      expect(unknownStep!.toolResults).toHaveLength(0);
      expect(toolOutputsSeen(calls[5]).get('call_4_0')).toEqual({
        type: 'error-text',
        value:
          'Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
      });

      // The key reached neither the model nor the tool set.
      expect(JSON.stringify(calls)).not.toContain(emulator.keys.valid);
      expect(JSON.stringify(tools)).not.toContain(emulator.keys.valid);
    });

    it('hands the application the one output shape, { request, response, tier? }, for every tool', async () => {
      const tools = createCatalogTools({
        clientOptions: clientOptions(emulator.keys.valid),
        needsApproval: false,
      });
      const outcome = await harness.generate({
        tools,
        messages: userSays('Trail shoes, outdoor retailers, and rename my Summer collection.'),
        steps: [
          () => [{ toolName: 'search_catalog', input: SHAPE_INPUTS.search_catalog }],
          () => [{ toolName: 'search_websites', input: SHAPE_INPUTS.search_websites }],
          () => [{ toolName: 'update_collection', input: SHAPE_INPUTS.update_collection }],
        ],
      });
      const [catalog, websites, update] = outcome.result.steps.map(
        (step) => step.toolResults[0]?.output,
      );
      await expectOneShape(
        { search_catalog: catalog, search_websites: websites, update_collection: update },
        new CatalogClient(clientOptions(emulator.keys.valid)),
        emulator.state.collections.get('col_summer'),
      );
      // The model read the view of that same object (toModelOutput reads the shape).
      const seen = String(toolOutputsSeen(outcome.calls[1]).get('call_0_0')?.value);
      expect(seen).toMatch(/^2 of \d+ products for "trail running shoes"\./);
      const { response } = catalog as SearchCatalogOutput;
      for (const variant of response.products.flatMap((product) => product.variants)) {
        expect(seen).toContain(buyLinkReference(variant.url!));
      }
    });

    it('tells the model when the daily rate limit resets (429); the app gets the RateLimitError', async () => {
      const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
      try {
        const search = {
          toolName: 'search_catalog',
          input: { query: 'rain jacket', limit: 2, cursor: null, placements: null },
        };
        const outcome = await harness.generate({
          tools: createCatalogTools({ clientOptions: clientOptions(limited.keys.valid, limited) }),
          messages: userSays('jackets'),
          steps: [() => [search], () => [search]],
        });
        const seen = toolOutputsSeen(outcome.calls[2]).get('call_1_0');
        expect(seen?.type).toBe('error-text');
        expect(String(seen?.value)).toMatch(
          /^Rate limit of the catalog service reached \(limits are daily, per UTC day\)\. It resets at \d{4}-\d\d-\d\dT00:00Z/,
        );
        const error = toolErrorOf(outcome, 1, 'call_1_0');
        expect((error as Error | undefined)?.cause).toBeInstanceOf(RateLimitError);
      } finally {
        await limited.close();
      }
    });

    it('changes the collection only after the user approves the update_collection call', async () => {
      const tools = createCatalogTools({ clientOptions: clientOptions(emulator.keys.valid) });
      const before = structuredClone(emulator.state.collections.get('col_summer'));
      const messages = userSays('Rename my Summer collection to Beach');
      const rename = { ...noChange, collection_id: 'col_summer', name: 'Beach' };
      const asked = await harness.generate({
        tools,
        messages,
        steps: [() => [{ toolName: 'update_collection', input: rename }]],
      });

      // Generation stops at the call, with nothing run and nothing changed.
      expect(asked.result.steps).toHaveLength(1);
      expect(asked.result.steps[0]!.toolResults).toHaveLength(0);
      expect(asked.result.toolCalls).toMatchObject([
        { toolName: 'update_collection', input: rename },
      ]);
      expect(emulator.state.collections.get('col_summer')).toEqual(before);

      // The user approves, the way this version of `ai` records it; the next step runs it.
      const approvedTools = createCatalogTools({
        clientOptions: clientOptions(emulator.keys.valid),
        include: ['update_collection'],
        needsApproval: false,
      });
      const approval = await harness.approvalMessages(asked, approvedTools);
      const resumed = await harness.generate({
        tools,
        messages: [...messages, ...asked.result.response.messages, ...approval],
        steps: [],
      });
      expect(resumed.result.text).toBe('Done.');
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Beach');
      const seen = toolOutputsSeen(resumed.calls[0]).get('call_0_0');
      expect(seen?.type).toBe('text');
      expect(seen?.value).toContain('Beach');
    });

    it('builds only the selected tools, renamed, with provider-safe names and strict-mode JSON Schemas', async () => {
      const tools = createCatalogTools({
        clientOptions: clientOptions(emulator.keys.valid),
        exclude: ['update_collection'],
        rename: (name) => `shop_${name}`,
      });
      expect(Object.keys(tools)).toEqual(['shop_search_catalog', 'shop_search_websites']);
      expect(tools.shop_search_catalog?.description).toContain('shop_search_websites');
      for (const [name, tool] of Object.entries(
        createCatalogTools({ clientOptions: clientOptions(emulator.keys.valid) }),
      )) {
        expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        const violations = openAiStrictProblems(await harness.inputJsonSchema(tool));
        expect(violations, name).toEqual([]);
      }
    });

    it('adds your own tools (compare_prices) with the same treatment as the built-ins', async () => {
      const tools = createCatalogTools({
        clientOptions: clientOptions(emulator.keys.valid),
        tools: [comparePrices, archiveCollection],
        exclude: ['update_collection'],
        rename: (name) => `shop_${name}`,
      });
      expect(Object.keys(tools)).toEqual([
        'shop_search_catalog',
        'shop_search_websites',
        'shop_compare_prices',
        'shop_archive_collection',
      ]);
      expect(tools.shop_compare_prices?.description).toContain('shop_search_catalog gives');
      const before = structuredClone(emulator.state.collections.get('col_summer'));
      const outcome = await harness.generate({
        tools,
        messages: userSays('Cheapest rain jacket? Then archive my Summer collection.'),
        steps: [
          () => [{ toolName: 'shop_compare_prices', input: { query: 'rain jacket', limit: 3 } }],
          () => [{ toolName: 'shop_archive_collection', input: { collection_id: 'col_summer' } }],
        ],
      });

      // The application gets the full offers, cheapest first; the model reads the view.
      const output = outcome.result.steps[0]?.toolResults[0]?.output as ComparePricesOutput;
      // The one shape for custom tools too: what was asked, what came back.
      expect(Object.keys(output)).toEqual(['request', 'response']);
      expect(output.request).toEqual({ query: 'rain jacket', pagination: { limit: 3 } });
      const offers = output.response;
      expect(offers.length).toBeGreaterThan(1);
      const amounts = offers.map((offer) => offer.price.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
      const seen = toolOutputsSeen(outcome.calls[1]).get('call_0_0');
      expect(seen).toEqual({ type: 'text', value: offersView(output) });
      for (const offer of offers) expect(seen?.value).toContain(offer.url);

      // The tool that changes data waits for approval: nothing ran, nothing changed.
      expect(outcome.result.steps).toHaveLength(2);
      expect(outcome.result.steps[1]?.toolResults).toHaveLength(0);
      expect(emulator.state.collections.get('col_summer')).toEqual(before);
      expect(JSON.stringify(outcome.calls)).not.toContain(emulator.keys.valid);

      // A failure reaches the model as error text; a schema strict mode refuses is the
      // provider's to refuse (the testing kit's OpenAI stand-in does, as OpenAI does).
      const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 0 } });
      try {
        const failed = await harness.generate({
          tools: createCatalogTools({
            clientOptions: clientOptions(limited.keys.valid, limited),
            tools: [comparePrices],
          }),
          messages: userSays('jackets'),
          steps: [() => [{ toolName: 'compare_prices', input: { query: 'jacket', limit: null } }]],
        });
        const error = toolOutputsSeen(failed.calls[1]).get('call_0_0');
        expect(error?.type).toBe('error-text');
        expect(String(error?.value)).toMatch(/^Rate limit of the catalog service reached/);
      } finally {
        await limited.close();
      }
      expect(
        Object.keys(
          createCatalogTools({ tools: [looseTool], strict: false, include: ['loose_lookup'] }),
        ),
      ).toEqual(['loose_lookup']);
    });

    const strictNote =
      harness.major === 5
        ? 'cannot pass strict to providers (AI SDK 5)'
        : 'passes strict to providers';
    it(strictNote, async () => {
      const strictModes = async (strict?: boolean) => {
        const { calls } = await harness.generate({
          tools: createCatalogTools({ clientOptions: clientOptions(emulator.keys.valid), strict }),
          messages: userSays('hi'),
          steps: [],
        });
        return calls[0]?.tools?.map((tool) => tool.strict);
      };
      const expected = (strict: boolean) =>
        Array<boolean | undefined>(3).fill(harness.major === 5 ? undefined : strict);
      expect(await strictModes()).toEqual(expected(true));
      expect(await strictModes(false)).toEqual(expected(false));
    });
  });
}
