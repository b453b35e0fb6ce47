import { CatalogClient } from '@catalogkit/core';
import type { GetProductOutput, LookupCatalogOutput } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { Agent, run } from '@openai/agents';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../demo/scripted-model.js';
import { createCatalogTools, finalizeRunBuyLinks, toolOutputsOf } from '../src/index.js';
import { useOfflineEmulator } from './support/offline-emulator.js';

const { emulator, clientOptions } = useOfflineEmulator();

async function discovered(target: RunningEmulator) {
  const client = new CatalogClient(clientOptions(target));
  return { client, serviceTools: await client.catalog.tools() };
}

/** A product with offers in at least two colours. */
function productWithChoices() {
  const product = emulator().data.products.find(
    (p) => new Set(p.variants.map((v) => v.options[0]?.label)).size >= 2,
  );
  if (!product) throw new Error('no product with two colours');
  return product;
}

const references = (text: string) => text.match(/\[\[buy:\d{9}\]\]/g) ?? [];

describe('lookup_catalog and get_product with the OpenAI Agents SDK', () => {
  it('an agent calls both (by id and by URL); the buy links it writes resolve and verify', async () => {
    const tools = createCatalogTools(await discovered(emulator()));
    const product = productWithChoices();
    const other = emulator().data.products.find((p) => p !== product);
    const colour = product.variants[0]?.options[0]?.label ?? '';
    const model = new ScriptedModel(
      [
        () => [
          {
            name: 'lookup_catalog',
            input: { product_ids: [other?.id], urls: [product.variants[1]?.url] },
          },
          {
            name: 'get_product',
            input: {
              product_id: product.id,
              selected: [{ name: 'Color', label: colour }],
              preferences: null,
            },
          },
        ],
      ],
      (seen) =>
        [...seen.values()]
          .flatMap(references)
          .map((ref) => `- ${ref}`)
          .join('\n'),
    );
    const agent = new Agent({ name: 'Shopper', instructions: 'Help.', model, tools });
    const result = await run(agent, 'Tell me about these');
    const outputs = toolOutputsOf(result);
    expect(outputs.map((o) => o.toolName)).toEqual(['lookup_catalog', 'get_product']);
    const lookup = outputs[0]?.output as LookupCatalogOutput;
    const got = outputs[1]?.output as GetProductOutput;
    expect(lookup.response.products.map((p) => p.id)).toEqual([other?.id, product.id]);
    expect(got.response.product?.selected).toEqual([{ name: 'Color', label: colour }]);
    const links = [
      ...lookup.response.products.flatMap((p) => p.variants.map((v) => v.url)),
      ...(got.response.product?.variants.map((v) => v.url) ?? []),
    ];
    const finalized = finalizeRunBuyLinks(result);
    expect(finalized.ok).toBe(true);
    expect(finalized.unresolved).toEqual([]);
    expect(finalized.verified.map((found) => found.url)).toEqual(links);
    expect(finalized.text).toBe(links.map((link) => `- ${link}`).join('\n'));
  });

  describe('with the tools off in the emulator', () => {
    let off: RunningEmulator | undefined;
    afterAll(() => off?.close());
    it('the tool set is exactly today’s', async () => {
      off = await startEmulator({ port: 0, lookupTools: false });
      const { client, serviceTools } = await discovered(off);
      const today = createCatalogTools({ client });
      const fallback = createCatalogTools({ client, serviceTools });
      expect(fallback.map((tool) => tool.name)).toEqual([
        'search_catalog',
        'search_websites',
        'update_collection',
      ]);
      expect(JSON.stringify(fallback)).toBe(JSON.stringify(today));
    });
  });
});
