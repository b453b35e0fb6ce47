import { CatalogClient } from '@catalogkit/core';
import type { GetProductOutput, LookupCatalogOutput } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { generateText, type InferToolOutput, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createCatalogTools, finalizeResultBuyLinks } from '../src/index.js';
import { toolOutputsSeen, v3GenerateResult } from './support/harness.js';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

async function discovered(options: Parameters<typeof startEmulator>[0] = {}) {
  emulator = await startEmulator({ port: 0, ...options });
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
  });
  return { client, serviceTools: await client.catalog.tools() };
}

const call = (toolCallId: string, toolName: string, input: unknown) => ({
  type: 'tool-call' as const,
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});

describe('lookup_catalog and get_product with the AI SDK 7', () => {
  it('a model calls both (by id and by URL); the buy links it writes resolve and verify', async () => {
    const tools = createCatalogTools(await discovered());
    const product = emulator.data.products.find(
      (p) => new Set(p.variants.map((v) => v.options[0]?.label)).size >= 2,
    );
    const other = emulator.data.products.find((p) => p !== product);
    const colour = product?.variants[0]?.options[0]?.label;
    const model: MockLanguageModelV3 = new MockLanguageModelV3({
      doGenerate: async (options) => {
        if (model.doGenerateCalls.length === 1) {
          return v3GenerateResult([
            call('c1', 'lookup_catalog', {
              product_ids: [other?.id],
              urls: [product?.variants[0]?.url],
            }),
            call('c2', 'get_product', {
              product_id: product?.id,
              selected: [{ name: 'Color', label: colour }],
              preferences: null,
            }),
          ]);
        }
        const views = [...toolOutputsSeen(options).values()].map((seen) => String(seen.value));
        const refs = views.join('\n').match(/\[\[buy:\d{9}\]\]/g) ?? [];
        return {
          ...v3GenerateResult(undefined),
          content: [{ type: 'text', text: refs.join(' ') }],
        };
      },
    });
    const result = await generateText({
      model,
      tools,
      prompt: 'Details',
      stopWhen: stepCountIs(3),
    });
    const [lookup, got] = result.steps[0]?.toolResults ?? [];
    if (lookup?.toolName !== 'lookup_catalog' || got?.toolName !== 'get_product') {
      throw new Error('expected both tool results');
    }
    const lookupOutput = lookup.output as LookupCatalogOutput;
    const productOutput = got.output as GetProductOutput;
    expect(lookupOutput.response.products.map((p) => p.id)).toEqual([other?.id, product?.id]);
    expect(
      productOutput.response.product?.variants.every((v) => v.options?.[0]?.label === colour),
    ).toBe(true);
    const links = [
      ...lookupOutput.response.products.flatMap((p) => p.variants.map((v) => v.url)),
      ...(productOutput.response.product?.variants.map((v) => v.url) ?? []),
    ];
    const finalized = finalizeResultBuyLinks(result);
    expect(finalized.ok).toBe(true);
    expect(finalized.text).toBe(links.join(' '));
    expect(finalized.verified.map((found) => found.url)).toEqual(links);
  });

  it('types the two tools as optional members of the set (present only when listed)', async () => {
    const tools = createCatalogTools({ ...(await discovered()), include: ['get_product'] });
    expect(Object.keys(tools)).toEqual(['get_product']);
    const get = tools.get_product;
    if (!get) throw new Error('get_product missing');
    expectTypeOf<InferToolOutput<typeof get>>().toEqualTypeOf<GetProductOutput>();
    // @ts-expect-error not included, so not in the set
    expect(tools.search_catalog).toBeUndefined();
  });

  it('with the tools off in the emulator, the tool set is exactly today’s', async () => {
    const { client, serviceTools } = await discovered({ lookupTools: false });
    const fallback = createCatalogTools({ client, serviceTools });
    expect(Object.keys(fallback)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
    ]);
    expect(JSON.stringify(fallback)).toBe(JSON.stringify(createCatalogTools({ client })));
  });
});
