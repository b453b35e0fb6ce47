import { startEmulator } from '@catalogkit/emulator';
import { shoppingAgentSuite } from '@catalogkit/example-demo-support/testing';
import { ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../demo/run.js';
import { ScriptedShopperChatModel } from '../demo/scripted-chat-model.js';
import { runShoppingAgent } from '../src/agent.js';

shoppingAgentSuite({ framework: 'LangChain', run: runDemo });

describe('runShoppingAgent', () => {
  it('returns the answer and the messages, each ToolMessage with the full result as its artifact', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const { text, steps } = await runShoppingAgent(
        'Find trail running shoes under $120 in GB, then add the best one to col_summer.',
        {
          model: new ScriptedShopperChatModel({}),
          clientOptions: {
            apiKey: emulator.keys.valid,
            baseUrl: emulator.baseUrl,
            mcpUrl: emulator.mcpUrl,
          },
          approve: async () => ({ approved: true }),
        },
      );
      const toolMessages = steps.filter((message) => ToolMessage.isInstance(message));
      expect(toolMessages.map((message) => message.name)).toContain('search_catalog');
      // The model read the compact text; the application gets the parsed result.
      expect(typeof toolMessages[0]?.content).toBe('string');
      expect(toolMessages[0]?.artifact).toMatchObject({
        request: { query: expect.any(String) },
        response: { products: expect.any(Array) },
        tier: 'token',
      });
      const update = toolMessages.find((message) => message.name === 'update_collection');
      expect(update?.artifact).toStrictEqual({
        request: { collectionId: 'col_summer', update: expect.any(Object) },
        response: emulator.state.collections.get('col_summer'),
      });
      expect(text).toContain('I added these to col_summer');
    } finally {
      await emulator.close();
    }
  });
});
