import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { generateText, type LanguageModel, stepCountIs } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
  anthropicResultsSeen,
  declarations,
  declaredTools,
  geminiDeclarationProblems,
  googleResultsSeen,
  openAiResultsSeen,
  openAiStrictProblems,
  type RecordedRequest,
  type ResultSeen,
  type RunningStandIn,
  type ScriptedCall,
  type ScriptedTurn,
  startAnthropicStandIn,
  startGoogleStandIn,
  startOpenAiChatStandIn,
} from '../../integration/test/provider-stand-ins/index.js';
import { createCatalogTools } from '../src/index.js';

/**
 * generateText through the real provider packages (the versions that go with ai 7), each
 * pointed at a loopback stand-in of its provider's HTTP API that checks the tool schemas by
 * that provider's rules and answers with the tool calls its models send.
 */
interface ProviderCase {
  provider: string;
  start(turns: readonly ScriptedTurn[]): Promise<RunningStandIn>;
  model(baseURL: string): LanguageModel;
  resultsSeen(request: RecordedRequest | undefined): ResultSeen[];
  /** The calls this provider's models make for "running shoes, and retailers in the UK". */
  calls: [ScriptedCall, ScriptedCall];
}

const FINAL = 'Here are running shoes and retailers.';

const cases: ProviderCase[] = [
  {
    provider: '@ai-sdk/openai (strict mode)',
    start: startOpenAiChatStandIn,
    model: (baseURL) => createOpenAI({ baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1-mini'),
    resultsSeen: openAiResultsSeen,
    // Strict mode: every field present, null for "not given", values within the schema.
    calls: [
      {
        name: 'search_catalog',
        args: { query: 'running shoes', limit: null, cursor: null, placements: null },
      },
      {
        name: 'search_websites',
        args: { query: 'running', limit: null, category_ids: null, country: 'GB' },
      },
    ],
  },
  {
    provider: '@ai-sdk/anthropic',
    start: startAnthropicStandIn,
    model: (baseURL) =>
      createAnthropic({ baseURL, apiKey: 'sk-ant-stand-in' })('claude-sonnet-4-5'),
    resultsSeen: anthropicResultsSeen,
    // Claude leaves optional fields out and writes the country as people do.
    calls: [
      { name: 'search_catalog', args: { query: 'running shoes' } },
      { name: 'search_websites', args: { query: 'running', country: 'UK' } },
    ],
  },
  {
    provider: '@ai-sdk/google',
    start: startGoogleStandIn,
    model: (baseURL) =>
      createGoogleGenerativeAI({ baseURL, apiKey: 'g-stand-in' })('gemini-2.5-flash'),
    resultsSeen: googleResultsSeen,
    calls: [
      { name: 'search_catalog', args: { query: 'running shoes', limit: 3 } },
      { name: 'search_websites', args: { query: 'running', country: 'gb' } },
    ],
  },
  {
    provider: '@ai-sdk/openai-compatible (an open model)',
    start: startOpenAiChatStandIn,
    model: (baseURL) =>
      createOpenAICompatible({ name: 'local', baseURL, apiKey: 'local-key' }).chatModel(
        'qwen3-32b',
      ),
    resultsSeen: openAiResultsSeen,
    // Open models: numbers as strings, a lone string for a list, enum values in any case.
    calls: [
      {
        name: 'search_catalog',
        args: { query: ' running shoes ', limit: '3', placements: 'affiliate' },
      },
      { name: 'search_websites', args: { query: 'running', limit: '2', country: 'uk' } },
    ],
  },
];

describe('createCatalogTools through the real provider packages (ai 7)', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  for (const testCase of cases) {
    it(`${testCase.provider}: the calls its models send run; the app gets products, the model reads the compact view`, async () => {
      const standIn = await testCase.start([testCase.calls, FINAL]);
      try {
        const tools = createCatalogTools({
          clientOptions: {
            apiKey: emulator.keys.valid,
            baseUrl: emulator.baseUrl,
            mcpUrl: emulator.mcpUrl,
          },
          include: ['search_catalog', 'search_websites'],
        });
        const result = await generateText({
          model: testCase.model(standIn.baseURL),
          tools,
          stopWhen: stepCountIs(3),
          prompt: 'Find running shoes and retailers that pay commission in the UK.',
        });

        // The provider accepted every tool schema (its stand-in checked them by its rules).
        expect(standIn.schemaProblems).toEqual([]);
        expect(result.text).toBe(FINAL);
        const [first] = result.steps;
        expect(first?.toolResults.map((toolResult) => toolResult.toolName)).toEqual([
          'search_catalog',
          'search_websites',
        ]);
        // Typed results: the output of each tool is its own type.
        let products = 0;
        let websites = 0;
        for (const toolResult of first?.toolResults ?? []) {
          // Results of dynamic tools (none here) are untyped; ours are typed by name.
          if (toolResult.dynamic) continue;
          if (toolResult.toolName === 'search_catalog') {
            products = toolResult.output.result.products.length;
          } else if (toolResult.toolName === 'search_websites') {
            expect(toolResult.output.request.country).toBe('GB');
            websites = toolResult.output.response.websites.length;
          }
        }
        expect(products).toBeGreaterThan(0);
        expect(websites).toBeGreaterThan(0);

        // What the model read: the compact views, with the buy links byte for byte.
        const seen = testCase.resultsSeen(standIn.requests[1]);
        expect(seen).toHaveLength(2);
        expect(seen.every((result) => !result.isError)).toBe(true);
        const catalog = first!.toolResults.find((r) => r.toolName === 'search_catalog');
        const firstUrl =
          catalog?.toolName === 'search_catalog' && !catalog.dynamic
            ? catalog.output.result.products[0]?.variants[0]?.url
            : undefined;
        expect(firstUrl).toMatch(/^https:\/\//);
        const catalogText = seen.map((result) => result.text).join('\n');
        expect(catalogText).toContain(JSON.stringify(firstUrl).slice(1, -1));
        expect(catalogText).not.toContain('"variants"');

        // The key never reached the provider.
        expect(JSON.stringify(standIn.requests.map((r) => r.body))).not.toContain(
          emulator.keys.valid,
        );
      } finally {
        await standIn.close();
      }
    });
  }

  it('@ai-sdk/openai declares every catalog tool with strict: true', async () => {
    const standIn = await startOpenAiChatStandIn(['Nothing to do.']);
    try {
      await generateText({
        model: createOpenAI({ baseURL: standIn.baseURL, apiKey: 'sk-stand-in' }).chat('gpt-4.1'),
        tools: createCatalogTools({
          clientOptions: { apiKey: 'k', baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
        }),
        prompt: 'hi',
      });
      expect(declaredTools(standIn.requests[0]!)).toEqual([
        { name: 'search_catalog', strict: true },
        { name: 'search_websites', strict: true },
        { name: 'update_collection', strict: true },
      ]);
      expect(standIn.schemaProblems).toEqual([]);
    } finally {
      await standIn.close();
    }
  });

  it('the stand-ins refuse what their providers refuse', async () => {
    const loose = z.toJSONSchema(
      z.looseObject({ query: z.string(), limit: z.number().optional() }),
    );
    expect(openAiStrictProblems(loose)).toEqual([
      '(root): additionalProperties must be false',
      '(root).limit: must be in required',
    ]);
    expect(
      geminiDeclarationProblems({
        name: 'search',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
      }),
    ).toEqual(['search: additionalProperties is not a Schema field']);
    // And the one Gemini gets from @ai-sdk/google is checked as JSON Schema.
    const standIn = await startGoogleStandIn(['Nothing to do.']);
    try {
      await generateText({
        model: createGoogleGenerativeAI({ baseURL: standIn.baseURL, apiKey: 'g' })(
          'gemini-2.5-flash',
        ),
        tools: createCatalogTools({
          clientOptions: { apiKey: 'k', baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
        }),
        prompt: 'hi',
      });
      const declared = declarations(standIn.requests[0]!);
      expect(declared.map((declaration) => declaration.name)).toEqual([
        'search_catalog',
        'search_websites',
        'update_collection',
      ]);
      expect(declared.every((declaration) => 'parametersJsonSchema' in declaration)).toBe(true);
      expect(standIn.schemaProblems).toEqual([]);
    } finally {
      await standIn.close();
    }
  });
});
