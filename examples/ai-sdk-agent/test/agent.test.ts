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
});
