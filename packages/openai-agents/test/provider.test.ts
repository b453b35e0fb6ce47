import { Agent, OpenAIProvider, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import {
  declaredTools,
  openAiResultsSeen,
  startOpenAiStandIn as startOpenAiChatStandIn,
} from '../../testing/src/stand-ins/index.js';
import { catalogToolOutputOf, createCatalogTools } from '../src/index.js';
import { useOfflineEmulator } from './support/offline-emulator.js';

const { clientOptions } = useOfflineEmulator();

const FINAL = 'Here are running shoes and retailers.';

describe('the tools with the SDK’s own OpenAI model (Chat Completions, against a stand-in)', () => {
  it('declares strict tools OpenAI accepts and sends back the compact results', async () => {
    // The stand-in answers 400, like OpenAI, when a strict tool's schema breaks the rules.
    const standIn = await startOpenAiChatStandIn([
      [
        {
          name: 'search_catalog',
          args: { query: 'running shoes', limit: 2, cursor: null, placements: null },
        },
        {
          name: 'search_websites',
          args: { query: 'running', limit: null, category_ids: null, country: 'GB' },
        },
      ],
      FINAL,
    ]);
    try {
      const provider = new OpenAIProvider({
        apiKey: 'sk-stand-in',
        baseURL: standIn.baseURL,
        useResponses: false,
      });
      const agent = new Agent({
        name: 'Shopper',
        instructions: 'Help the user shop.',
        model: await provider.getModel('gpt-4.1-mini'),
        tools: createCatalogTools({ clientOptions: clientOptions() }),
      });
      const result = await run(agent, 'Running shoes, and retailers in the UK');

      expect(standIn.schemaProblems).toEqual([]);
      const [first, second] = standIn.requests;
      if (!first) throw new Error('no request reached the stand-in');
      expect(declaredTools(first)).toEqual([
        { name: 'search_catalog', strict: true },
        { name: 'search_websites', strict: true },
        { name: 'update_collection', strict: true },
      ]);
      const seen = openAiResultsSeen(second);
      expect(seen.map((result) => result.callId)).toEqual(['call_0_0', 'call_0_1']);
      expect(seen[0]?.text).toMatch(/^2 of \d+ products for "running shoes"/);
      expect(seen[1]?.text).toMatch(/websites for "running" \(commission rates for GB\)/);
      expect(result.finalOutput).toBe(FINAL);
      expect(result.newItems.map(catalogToolOutputOf).filter(Boolean)).toHaveLength(2);
      expect(JSON.stringify(standIn.requests)).not.toContain(clientOptions().apiKey);
    } finally {
      await standIn.close();
    }
  });
});
