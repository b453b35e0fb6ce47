import type { SearchCatalogOutput, SearchWebsitesOutput } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import type { ToolSet } from 'ai';
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
  startOpenAiStandIn as startOpenAiChatStandIn,
} from '../../../testing/src/stand-ins/index.js';
import { createCatalogTools } from '../../src/index.js';

/** The provider packages of one major of `ai`, each making a model that calls `baseURL`. */
export interface ProviderHarness {
  major: 5 | 6 | 7;
  /** Package versions, for the test names. */
  versions: Record<'openai' | 'anthropic' | 'google' | 'compatible', string>;
  models: Record<'openai' | 'anthropic' | 'google' | 'compatible', (baseURL: string) => unknown>;
  /** `generateText` of that major (asking OpenAI for strict tools the way that major does). */
  generate(run: { model: unknown; tools: ToolSet; prompt: string }): Promise<{
    text: string;
    steps: readonly { toolResults: readonly { toolName: string; output: unknown }[] }[];
  }>;
}

interface ProviderCase {
  provider: string;
  start(turns: readonly ScriptedTurn[]): Promise<RunningStandIn>;
  model: keyof ProviderHarness['models'];
  resultsSeen(request: RecordedRequest | undefined): ResultSeen[];
  /** The calls this provider's models make for "running shoes, and retailers in the UK". */
  calls: [ScriptedCall, ScriptedCall];
}

const FINAL = 'Here are running shoes and retailers.';

const cases: ProviderCase[] = [
  {
    provider: '@ai-sdk/openai (strict mode)',
    start: startOpenAiChatStandIn,
    model: 'openai',
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
    model: 'anthropic',
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
    model: 'google',
    resultsSeen: googleResultsSeen,
    calls: [
      { name: 'search_catalog', args: { query: 'running shoes', limit: 3 } },
      { name: 'search_websites', args: { query: 'running', country: 'gb' } },
    ],
  },
  {
    provider: '@ai-sdk/openai-compatible (an open model)',
    start: startOpenAiChatStandIn,
    model: 'compatible',
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

/**
 * generateText through the real provider packages of one major of `ai`, each pointed at a
 * loopback stand-in of its provider's HTTP API that checks the tool schemas by that
 * provider's rules and answers with the tool calls its models send.
 */
export function describeProviders(harness: ProviderHarness): void {
  describe(`createCatalogTools through the real provider packages (ai ${harness.major})`, () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator({ port: 0 });
    });
    afterAll(async () => {
      await emulator?.close();
    });

    for (const testCase of cases) {
      const version = harness.versions[testCase.model];
      it(`${testCase.provider} ${version}: the calls its models send run; the app gets products, the model reads the compact view`, async () => {
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
          const result = await harness.generate({
            model: harness.models[testCase.model](standIn.baseURL),
            tools: tools as ToolSet,
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
          // The application gets the full results (typed by tool name: test/tool-set-types).
          const outputOf = (name: string) =>
            first?.toolResults.find((toolResult) => toolResult.toolName === name)?.output;
          const catalog = outputOf('search_catalog') as SearchCatalogOutput;
          const websites = outputOf('search_websites') as SearchWebsitesOutput;
          expect(catalog.response.products.length).toBeGreaterThan(0);
          expect(websites.request.country).toBe('GB');
          expect(websites.response.websites.length).toBeGreaterThan(0);

          // What the model read: the compact views; buy links as references (the default),
          // so no URL of the catalog reaches the provider.
          const seen = testCase.resultsSeen(standIn.requests[1]);
          expect(seen).toHaveLength(2);
          expect(seen.every((result) => !result.isError)).toBe(true);
          const firstUrl = catalog.response.products[0]?.variants[0]?.url;
          expect(firstUrl).toMatch(/^https:\/\//);
          const catalogText = seen[0]?.text ?? '';
          expect(catalogText).toContain(buyLinkReference(firstUrl!));
          expect(catalogText).not.toMatch(/https?:/i);
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
        await harness.generate({
          model: harness.models.openai(standIn.baseURL),
          tools: createCatalogTools({
            clientOptions: { apiKey: 'k', baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
          }) as ToolSet,
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
        await harness.generate({
          model: harness.models.google(standIn.baseURL),
          tools: createCatalogTools({
            clientOptions: { apiKey: 'k', baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
          }) as ToolSet,
          prompt: 'hi',
        });
        const declared = declarations(standIn.requests[0]!);
        expect(declared.map((declaration) => declaration.name)).toEqual([
          'search_catalog',
          'search_websites',
          'update_collection',
        ]);
        // JSON Schema (google 4.x) or the OpenAPI subset (earlier lines), each checked by its rules.
        expect(declared.every((d) => 'parametersJsonSchema' in d || 'parameters' in d)).toBe(true);
        expect(standIn.schemaProblems).toEqual([]);
      } finally {
        await standIn.close();
      }
    });
  });
}
