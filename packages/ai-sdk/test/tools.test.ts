import {
  findStrictModeViolations,
  RateLimitError,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
} from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { asSchema, generateText, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogToolCallError, createCatalogTools } from '../src/index.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];
type ToolCall = { toolName: string; input: unknown };

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function toolCalls(step: number, calls: ToolCall[]): GenerateResult {
  return {
    content: calls.map((call, i) => ({
      type: 'tool-call' as const,
      toolCallId: `call_${step}_${i}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

const finalText: GenerateResult = {
  content: [{ type: 'text', text: 'Done.' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};

/** The text of every tool result in the prompt a model received, by tool call id. */
function toolResultsSeen(
  call: CallOptions | undefined,
): Map<string, { type: string; value: unknown }> {
  const seen = new Map<string, { type: string; value: unknown }>();
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        seen.set(part.toolCallId, part.output as { type: string; value: unknown });
    }
  }
  return seen;
}

/** A mock model that plays a scripted turn per step; a step may read what the model saw. */
function scriptedModel(
  steps: Array<(seen: Map<string, { type: string; value: unknown }>) => ToolCall[]>,
) {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const step = model.doGenerateCalls.length - 1;
      const script = steps[step];
      return script ? toolCalls(step, script(toolResultsSeen(options))) : finalText;
    },
  });
  return model;
}

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
const noChange = {
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};

describe('createCatalogTools with generateText', () => {
  it('runs each tool in turn; the model reads compact text, the application gets full results', async () => {
    const tools = createCatalogTools({
      clientOptions: clientOptions(emulator.keys.valid),
      defaults: { placements: ['affiliate'] },
    });
    const model = scriptedModel([
      () => [
        {
          toolName: 'search_catalog',
          input: { query: 'trail running shoes', limit: 3, cursor: null, placements: null },
        },
      ],
      () => [
        // Refused by the tool schema (AI SDK validation) and by the service rules (client validation).
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
        const catalogText = String(seen.get('call_0_0')?.value);
        const websitesText = String(seen.get('call_2_0')?.value);
        const productId = /\| (prod_\w+)/.exec(catalogText)?.[1] ?? 'missing';
        const websiteId = /website_id (\w+)/.exec(websitesText)?.[1] ?? 'missing';
        const clause = {
          brand_ids: [],
          website_ids: [websiteId],
          category_ids: [],
          product_ids: [productId],
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
    ]);

    const result = await generateText({
      model,
      tools,
      prompt: 'Find trail running shoes and keep one in my Summer collection.',
      stopWhen: stepCountIs(10),
      toolApproval: { update_collection: 'approved' },
    });

    expect(result.text).toBe('Done.');
    const [catalogStep, invalidStep, websitesStep, updateStep, unknownStep] = result.steps;

    // Step 1: full result for the app, compact text for the model, buy links byte for byte.
    const catalog = catalogStep!.toolResults[0]!.output as SearchCatalogOutput;
    expect(catalog.tier).toBe('token');
    expect(catalog.result.products).toHaveLength(3);
    const catalogSeen = toolResultsSeen(model.doGenerateCalls[1]).get('call_0_0');
    expect(catalogSeen?.type).toBe('text');
    for (const variant of catalog.result.products.flatMap((product) => product.variants)) {
      expect(catalogSeen?.value).toContain(variant.url);
    }
    expect(String(catalogSeen?.value).length).toBeLessThan(
      JSON.stringify(catalog.result).length / 2,
    );

    // Step 2: both invalid calls reach the model as errors naming the field.
    expect(invalidStep!.toolResults).toHaveLength(0);
    const invalidSeen = toolResultsSeen(model.doGenerateCalls[2]);
    expect(invalidSeen.get('call_1_0')?.type).toBe('error-text');
    expect(String(invalidSeen.get('call_1_0')?.value)).toMatch(/limit/);
    expect(invalidSeen.get('call_1_1')).toEqual({
      type: 'error-text',
      value:
        'Invalid arguments: query: must be at most 200 characters. Fix these fields and call the tool again.',
    });
    const toolError = invalidStep!.content.find(
      (part) => part.type === 'tool-error' && part.toolCallId === 'call_1_1',
    );
    expect(toolError && 'error' in toolError ? toolError.error : undefined).toBeInstanceOf(
      CatalogToolCallError,
    );

    // Step 3: the websites, then step 4: a clause built from ids the model read.
    const websites = websitesStep!.toolResults[0]!.output as SearchWebsitesOutput;
    expect(websites.request).toEqual({ query: 'outdoor', limit: 2, country: 'GB' });
    const update = updateStep!.toolResults[0]!.output as UpdateCollectionOutput;
    const added = update.collection.clauses?.at(-1);
    expect(added?.product_ids).toEqual([catalog.result.products[0]!.id]);
    expect(added?.website_ids).toEqual([websites.response.websites[0]!.id]);
    expect(toolResultsSeen(model.doGenerateCalls[4]).get('call_3_0')?.value).toContain(
      `clause_id ${added?.clause_id}`,
    );

    // Step 5: an unknown collection id.
    expect(unknownStep!.toolResults).toHaveLength(0);
    expect(toolResultsSeen(model.doGenerateCalls[5]).get('call_4_0')).toEqual({
      type: 'error-text',
      value:
        'Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
    });

    // The key reached neither the model nor the tool set.
    expect(JSON.stringify(model.doGenerateCalls)).not.toContain(emulator.keys.valid);
    expect(JSON.stringify(tools)).not.toContain(emulator.keys.valid);
  });

  it('tells the model when the daily rate limit resets (429); the app gets the RateLimitError', async () => {
    const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
    try {
      const tools = createCatalogTools({
        clientOptions: clientOptions(limited.keys.valid, limited),
      });
      const search = {
        toolName: 'search_catalog',
        input: { query: 'rain jacket', limit: 2, cursor: null, placements: null },
      };
      const model = scriptedModel([() => [search], () => [search]]);
      const result = await generateText({
        model,
        tools,
        prompt: 'jackets',
        stopWhen: stepCountIs(5),
      });
      const seen = toolResultsSeen(model.doGenerateCalls[2]).get('call_1_0');
      expect(seen?.type).toBe('error-text');
      expect(String(seen?.value)).toMatch(
        /^Rate limit of the catalog service reached \(limits are daily, per UTC day\)\. It resets at \d{4}-\d\d-\d\dT00:00Z/,
      );
      const error = result.steps[1]!.content.find((part) => part.type === 'tool-error');
      const cause = error && 'error' in error ? (error.error as Error).cause : undefined;
      expect(cause).toBeInstanceOf(RateLimitError);
    } finally {
      await limited.close();
    }
  });

  it('stops for approval before update_collection changes anything', async () => {
    const tools: ToolSet = createCatalogTools({
      clientOptions: clientOptions(emulator.keys.valid),
    });
    const before = structuredClone(emulator.state.collections.get('col_summer'));
    const model = scriptedModel([
      () => [
        {
          toolName: 'update_collection',
          input: { ...noChange, collection_id: 'col_summer', name: 'Renamed' },
        },
      ],
    ]);
    const result = await generateText({ model, tools, prompt: 'rename', stopWhen: stepCountIs(5) });
    expect(result.steps).toHaveLength(1);
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(true);
    expect(result.steps[0]!.toolResults).toHaveLength(0);
    expect(emulator.state.collections.get('col_summer')).toEqual(before);
  });

  it('builds only the selected tools, renamed, with strict input schemas', () => {
    const tools = createCatalogTools({
      clientOptions: clientOptions(emulator.keys.valid),
      exclude: ['update_collection'],
      rename: (name) => `shop_${name}`,
    });
    expect(Object.keys(tools)).toEqual(['shop_search_catalog', 'shop_search_websites']);
    expect(tools.shop_search_catalog?.description).toContain('shop_search_websites');
    expect(tools.shop_search_catalog?.strict).toBe(true);
  });

  it('gives providers names and JSON Schemas that OpenAI strict mode accepts', async () => {
    const tools = createCatalogTools({ clientOptions: clientOptions(emulator.keys.valid) });
    for (const [name, tool] of Object.entries(tools)) {
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const jsonSchema = await asSchema(tool.inputSchema).jsonSchema;
      expect(findStrictModeViolations(jsonSchema), name).toEqual([]);
    }
  });
});
