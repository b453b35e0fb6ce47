import { startEmulator } from '@catalogkit/emulator';
import { shoppingAgentSuite } from '@catalogkit/example-demo-support/testing';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../demo/run.js';
import { createScriptedModel } from '../demo/scripted-model.js';
import { runShoppingAgent } from '../src/agent.js';

shoppingAgentSuite({ framework: 'Vercel AI SDK', run: runDemo });

describe('runShoppingAgent', () => {
  it('returns the answer and the steps, with each tool’s full result for the application', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const { text, steps } = await runShoppingAgent(
        'Find trail running shoes under $120 in GB, then add the best one to col_summer.',
        {
          model: createScriptedModel(),
          clientOptions: {
            apiKey: emulator.keys.valid,
            baseUrl: emulator.baseUrl,
            mcpUrl: emulator.mcpUrl,
          },
          approve: async () => ({ approved: true }),
        },
      );
      const results = steps.flatMap((step) => step.toolResults);
      expect(results.map((result) => result.toolName)).toContain('search_catalog');
      // The application gets the parsed result (the model read a compact text of it).
      expect(results[0]?.output).toMatchObject({
        request: { query: expect.any(String) },
        response: { products: expect.any(Array) },
        tier: 'token',
      });
      const update = results.find((result) => result.toolName === 'update_collection');
      expect(update?.output).toStrictEqual({
        request: { collectionId: 'col_summer', update: expect.any(Object) },
        response: emulator.state.collections.get('col_summer'),
      });
      expect(text).toContain('I added these to col_summer');
    } finally {
      await emulator.close();
    }
  });

  it('reads a product the shopper asks about with get_product; its buy links are the service’s', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const product = emulator.data.products[0]!;
      const { text, steps } = await runShoppingAgent(
        `Tell me more about ${product.id}: colours and where to buy it.`,
        {
          model: createScriptedModel(),
          clientOptions: {
            apiKey: emulator.keys.valid,
            baseUrl: emulator.baseUrl,
            mcpUrl: emulator.mcpUrl,
          },
          approve: async () => ({ approved: false }),
        },
      );
      const results = steps.flatMap((step) => step.toolResults);
      expect(results.map((result) => result.toolName)).toEqual(['get_product']);
      const output = results[0]?.output as {
        response: { product: { variants: { url: string }[] } };
      };
      const links = output.response.product.variants.map((variant) => variant.url);
      expect(links.length).toBeGreaterThan(0);
      // Every offer's link, resolved from its reference byte for byte; no reference left.
      for (const link of links) expect(text).toContain(link);
      expect(text).not.toContain('[[buy:');
      expect(text).toContain(`(${product.id}) right now:`);
    } finally {
      await emulator.close();
    }
  });
});
