import {
  CatalogClient,
  ConfigurationError,
  RateLimitError,
  RequestValidationError,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
  ValidationError,
} from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { ToolMessage } from '@langchain/core/messages';
import { type DynamicStructuredTool, ToolInputParsingException } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  archiveCollection,
  type ComparePricesOutput,
  comparePrices,
  looseTool,
  offersView,
} from '../../../core/test/support/custom-tools.js';
import { expectOneShape, SHAPE_INPUTS } from '../../../core/test/support/one-shape.js';
import { openAiStrictProblems } from '../../../testing/src/stand-ins/schema-rules.js';
import {
  type CatalogLangChainTool,
  type CatalogToolFailure,
  CatalogToolkit,
  createCatalogTools,
  isCatalogToolFailure,
} from '../../src/index.js';

/** What the shared suite needs to know about the `@langchain/core` line under test. */
export interface LangChainCoreHarness {
  /** The line, for test names: '0.3' or '1'. */
  line: string;
  /** The exact version the vitest project must resolve `@langchain/core` to. */
  version: string;
  /**
   * `@langchain/core/tools` of that line, imported under a name the project's alias does not
   * touch, so the suite can prove the bare import (the one src/ makes) is redirected to it.
   */
  toolsModule: { DynamicStructuredTool: abstract new (...args: never[]) => unknown };
}

/** Fields of update_collection the model leaves unchanged (every field is required and nullable). */
export const noChange = {
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};

/** What the model reads for a search_websites call with three bad fields (core's wording). */
const BAD_WEBSITES_TEXT =
  'Error: Invalid arguments: query: must not be empty; give a retailer name or domain; limit: must be a whole number from 1 to 20, or null for the default (5); country: must be one of US, GB, EU, AU, CA, IE, DE, AT, FR, BE, IT, ES, NL, SE, FI, PT, CZ, GR, RO, or null for the default (US). Fix these fields and call the tool again.';

/** A running emulator for the file's tests, started once. */
export function useEmulator(): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('the emulator is not running yet');
    return emulator;
  };
}

/** Client options pointing at an emulator with one of its keys. */
export function clientOptions(apiKey: string, target: RunningEmulator) {
  return { apiKey, baseUrl: target.baseUrl, mcpUrl: target.mcpUrl };
}

function toolNamed(tools: DynamicStructuredTool[], name: string): DynamicStructuredTool {
  const found = tools.find((tool) => tool.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function invokeWithToolCall(
  tool: DynamicStructuredTool,
  args: Record<string, unknown>,
  id = 'call_1',
) {
  const message: unknown = await tool.invoke({ id, name: tool.name, args, type: 'tool_call' });
  // ToolMessage comes from the aliased `@langchain/core/messages`, so this also checks that the
  // message was built by the line under test.
  expect(message).toBeInstanceOf(ToolMessage);
  const toolMessage = message as ToolMessage;
  expect(toolMessage.tool_call_id).toBe(id);
  expect(toolMessage.name).toBe(tool.name);
  return toolMessage;
}

/**
 * The adapter's ToolCall → ToolMessage tests against the emulator over HTTP, run once per
 * supported line of `@langchain/core` (see the tools.core-*.test.ts files).
 */
export function describeLangChainTools(harness: LangChainCoreHarness): void {
  const emulator = useEmulator();
  const tools = () =>
    createCatalogTools({
      clientOptions: clientOptions(emulator().keys.valid, emulator()),
      defaults: { placements: ['affiliate'] },
    });

  describe(`on @langchain/core ${harness.line}`, () => {
    it(`runs on @langchain/core ${harness.version}, in the tests and in src/`, async () => {
      const { version } = (await import('@langchain/core/package.json')).default;
      expect(version).toBe(harness.version);
      expect(await import('@langchain/core/tools')).toBe(harness.toolsModule);
      for (const tool of tools())
        expect(tool).toBeInstanceOf(harness.toolsModule.DynamicStructuredTool);
    });
  });

  describe(`createCatalogTools invoked with a ToolCall (@langchain/core ${harness.line})`, () => {
    it('search_catalog: compact content for the model, the full result as the artifact', async () => {
      const message = await invokeWithToolCall(toolNamed(tools(), 'search_catalog'), {
        query: 'rain jacket',
        limit: 3,
        cursor: null,
        placements: null,
      });
      const artifact = message.artifact as SearchCatalogOutput;
      expect(artifact.tier).toBe('token');
      expect(artifact.response.products).toHaveLength(3);
      expect(typeof message.content).toBe('string');
      // Buy links as references (the default): the links are in the artifact only.
      for (const variant of artifact.response.products.flatMap((product) => product.variants)) {
        expect(message.content).toContain(buyLinkReference(variant.url!));
        expect(message.content).not.toContain(variant.url);
      }
      expect(message.content).toContain(artifact.response.products[0]!.id);
      expect(message.content).toMatch(/\d+(\.\d+)?% \| \[\[buy:\d{9}\]\]/);
    });

    it('every artifact is the one output shape, { request, response, tier? }', async () => {
      const target = emulator();
      const all = createCatalogTools({ clientOptions: clientOptions(target.keys.valid, target) });
      const artifactOf = async (name: keyof typeof SHAPE_INPUTS) =>
        (await invokeWithToolCall(toolNamed(all, name), SHAPE_INPUTS[name])).artifact;
      await expectOneShape(
        {
          search_catalog: await artifactOf('search_catalog'),
          search_websites: await artifactOf('search_websites'),
          update_collection: await artifactOf('update_collection'),
        },
        new CatalogClient(clientOptions(target.keys.valid, target)),
        target.state.collections.get('col_summer'),
      );
    });

    it('search_websites: ids for clauses in the content, the response as the artifact', async () => {
      const message = await invokeWithToolCall(toolNamed(tools(), 'search_websites'), {
        query: 'outdoor',
        limit: 2,
        category_ids: null,
        country: 'DE',
      });
      const artifact = message.artifact as SearchWebsitesOutput;
      expect(artifact.request.country).toBe('DE');
      expect(artifact.response.websites.length).toBeGreaterThan(0);
      for (const website of artifact.response.websites)
        expect(message.content).toContain(`website_id ${website.id}`);
    });

    it('update_collection: the collection after the change; an unknown clause id comes back as an error text', async () => {
      const updateCollection = toolNamed(tools(), 'update_collection');
      const updated = await invokeWithToolCall(updateCollection, {
        ...noChange,
        collection_id: 'col_summer',
        description: `Things for the beach (${harness.line})`,
      });
      const artifact = updated.artifact as UpdateCollectionOutput;
      expect(artifact.response.description).toBe(`Things for the beach (${harness.line})`);
      expect(updated.content).toContain(`Description: Things for the beach (${harness.line})`);

      const failed = await invokeWithToolCall(updateCollection, {
        ...noChange,
        collection_id: 'col_summer',
        replace_clauses: [
          {
            clause_id: 'cl_nope',
            brand_ids: [],
            website_ids: [],
            category_ids: [],
            product_ids: [],
          },
        ],
      });
      expect(failed.content).toBe(
        "Error: The catalog service refused the input: replace_clauses.0.clause_id: Unknown clause id 'cl_nope' in collection 'col_summer'. Fix these fields and try again.",
      );
      expect(failed.status).toBe('error');
      expect(updated.status).toBe('success');
      expect(isCatalogToolFailure(failed.artifact)).toBe(true);
      expect(failed.artifact.error).toBeInstanceOf(ValidationError);
    });

    it('answers a ToolCall that breaks the input schema with an error ToolMessage naming every bad field; nothing is sent', async () => {
      const before = emulator().stats.snapshot();
      const message = await invokeWithToolCall(
        toolNamed(tools(), 'search_websites'),
        { query: '   ', limit: 99, country: 'Atlantis' },
        'call_bad',
      );
      expect(message.status).toBe('error');
      expect(message.content).toBe(BAD_WEBSITES_TEXT);
      expect(isCatalogToolFailure(message.artifact)).toBe(true);
      expect(message.artifact.error).toBeInstanceOf(RequestValidationError);
      expect(emulator().stats.snapshot()).toEqual(before);
    });

    it('tool.batch over tool calls: a bad call is its own error ToolMessage, the others run', async () => {
      const search = toolNamed(tools(), 'search_catalog');
      const call = (id: string, args: Record<string, unknown>) => ({
        id,
        name: 'search_catalog',
        args,
        type: 'tool_call' as const,
      });
      const before = emulator().stats.snapshot();
      const refused: ToolMessage[] = await search.batch([
        call('call_a', { query: 'jacket', limit: 0 }),
        call('call_b', { limit: 'five' }),
      ]);
      expect(emulator().stats.snapshot()).toEqual(before);
      expect(refused.map((message) => [message.tool_call_id, message.status])).toEqual([
        ['call_a', 'error'],
        ['call_b', 'error'],
      ]);
      expect(refused.map((message) => message.content)).toEqual([
        'Error: Invalid arguments: limit: must be a whole number from 1 to 20, or null for the default. Fix these fields and call the tool again.',
        'Error: Invalid arguments: query: must be text: what the shopper wants, in plain words; limit: must be a whole number from 1 to 20, or null for the default. Fix these fields and call the tool again.',
      ]);

      // Left-out optional fields are fine; a bad neighbour does not reject the batch.
      const mixed: ToolMessage[] = await search.batch([
        call('call_ok', { query: 'rain jacket', limit: 2 }),
        call('call_bad', { query: 'rain jacket', limit: 99 }),
      ]);
      expect(mixed.map((message) => message.status)).toEqual(['success', 'error']);
      expect((mixed[0]!.artifact as SearchCatalogOutput).response.products).toHaveLength(2);
      expect(mixed[1]!.content).toMatch(/^Error: Invalid arguments: limit: /);
    });

    it('plain input (not a ToolCall) that breaks the schema still throws, as LangChain does', async () => {
      const before = emulator().stats.snapshot();
      const call = toolNamed(tools(), 'search_websites').invoke({ query: 'x', limit: 99 });
      await expect(call).rejects.toThrowError(ToolInputParsingException);
      await expect(call).rejects.toThrowError(/\blimit\b/);
      expect(emulator().stats.snapshot()).toEqual(before);
    });

    it('tells the model when the daily rate limit resets (429)', async () => {
      const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
      try {
        const search = toolNamed(
          createCatalogTools({ clientOptions: clientOptions(limited.keys.valid, limited) }),
          'search_catalog',
        );
        const args = { query: 'yoga mat', limit: 1, cursor: null, placements: null };
        await invokeWithToolCall(search, args);
        const limitedMessage = await invokeWithToolCall(search, args, 'call_2');
        expect(limitedMessage.content).toMatch(
          /^Error: Rate limit of the catalog service reached \(limits are daily, per UTC day\)\. It resets at \d{4}-\d\d-\d\dT00:00Z/,
        );
        expect(limitedMessage.status).toBe('error');
        expect(limitedMessage.artifact.error).toBeInstanceOf(RateLimitError);
      } finally {
        await limited.close();
      }
    });

    it('adds your own tools (compare_prices) with the same treatment as the built-ins', async () => {
      const ownTools = createCatalogTools({
        clientOptions: clientOptions(emulator().keys.valid, emulator()),
        tools: [comparePrices, archiveCollection],
        include: ['compare_prices', 'archive_collection', 'search_catalog'],
        rename: (name) => `shop_${name}`,
      });
      expect(ownTools.map((tool) => [tool.name, tool.metadata?.needsApproval])).toEqual([
        ['shop_search_catalog', false],
        ['shop_compare_prices', false],
        ['shop_archive_collection', true],
      ]);
      const compare = toolNamed(ownTools, 'shop_compare_prices');
      expect(compare.description).toContain('shop_search_catalog gives');
      expect(openAiStrictProblems(toJsonSchema(compare.schema))).toEqual([]);

      // The artifact is the full result, cheapest first; the model reads the tool's view.
      const message = await invokeWithToolCall(compare, { query: 'rain jacket', limit: 3 });
      const output = message.artifact as ComparePricesOutput;
      // The one shape for your own tools too: what was asked, what came back.
      expect(Object.keys(output)).toEqual(['request', 'response']);
      expect(output.request).toEqual({ query: 'rain jacket', pagination: { limit: 3 } });
      const offers = output.response;
      expect(offers.length).toBeGreaterThan(1);
      const amounts = offers.map((offer) => offer.price.amount);
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
      expect(message.content).toBe(offersView(output));
      for (const offer of offers) expect(message.content).toContain(offer.url);

      // A failure comes back as error text with the typed error as the artifact.
      const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 0 } });
      try {
        const [limitedCompare] = createCatalogTools({
          clientOptions: clientOptions(limited.keys.valid, limited),
          tools: [comparePrices],
          include: ['compare_prices'],
        });
        const failed = await invokeWithToolCall(limitedCompare!, { query: 'jacket', limit: null });
        expect(failed.content).toMatch(/^Error: Rate limit of the catalog service reached/);
        expect(failed.status).toBe('error');
        expect(failed.artifact.error).toBeInstanceOf(RateLimitError);
      } finally {
        await limited.close();
      }
      // A schema strict mode refuses is built; the provider refuses it when asked for strict.
      expect(createCatalogTools({ tools: [looseTool], include: ['loose_lookup'] })).toHaveLength(1);
    });

    it('is typed per tool: names and artifacts known, a misspelt name does not compile', async () => {
      const options = { clientOptions: clientOptions(emulator().keys.valid, emulator()) };
      const [search, websites, update] = createCatalogTools(options);
      expectTypeOf(search.name).toEqualTypeOf<'search_catalog'>();
      expectTypeOf(websites.name).toEqualTypeOf<'search_websites'>();
      expectTypeOf(update.name).toEqualTypeOf<'update_collection'>();
      expect([search.name, websites.name, update.name]).toEqual([
        'search_catalog',
        'search_websites',
        'update_collection',
      ]);
      // @ts-expect-error no such tool: the comparison has no overlap
      expect(search.name === 'serch_catalog').toBe(false);
      expect(() =>
        // @ts-expect-error a misspelt name in include does not compile (and throws at run time)
        createCatalogTools({ ...options, include: ['serch_catalog'] }),
      ).toThrowError(ConfigurationError);

      const [onlyWebsites] = createCatalogTools({ ...options, include: ['search_websites'] });
      expectTypeOf(onlyWebsites.name).toEqualTypeOf<'search_websites'>();
      const message = await onlyWebsites.invoke({
        id: 'call_typed',
        name: 'search_websites',
        args: { query: 'outdoor' },
        type: 'tool_call',
      });
      expectTypeOf(message.artifact).toEqualTypeOf<SearchWebsitesOutput | CatalogToolFailure>();
      if (isCatalogToolFailure(message.artifact)) throw message.artifact.error;
      expect(message.artifact.response.websites.length).toBeGreaterThan(0);

      // Your own tools: their names and `execute` results; with rename, plain tools.
      const [compare] = createCatalogTools({
        ...options,
        tools: [comparePrices],
        include: ['compare_prices'],
      });
      expectTypeOf(compare!.name).toEqualTypeOf<'compare_prices'>();
      expectTypeOf(compare).toEqualTypeOf<
        CatalogLangChainTool<'compare_prices', ComparePricesOutput> | undefined
      >();
      const renamed = createCatalogTools({ ...options, rename: (name) => `shop_${name}` });
      expectTypeOf(renamed).toEqualTypeOf<DynamicStructuredTool[]>();
    });

    it('has schemas LangChain turns into OpenAI strict-mode JSON Schema', () => {
      for (const tool of tools()) {
        const jsonSchema = toJsonSchema(tool.schema);
        expect(jsonSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(openAiStrictProblems(jsonSchema), tool.name).toEqual([]);
      }
    });
  });

  describe(`CatalogToolkit (@langchain/core ${harness.line})`, () => {
    it('gives the selected, renamed tools and keeps the key out of its serialised form', () => {
      const toolkit = new CatalogToolkit({
        clientOptions: clientOptions(emulator().keys.valid, emulator()),
        include: ['search_catalog', 'search_websites'],
        rename: (name) => `shop_${name}`,
      });
      expect(toolkit.getTools().map((tool) => tool.name)).toEqual([
        'shop_search_catalog',
        'shop_search_websites',
      ]);
      expect(JSON.stringify(toolkit)).not.toContain(emulator().keys.valid);
    });
  });
}
