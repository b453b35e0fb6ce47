import type { SearchCatalogOutput } from '@catalogkit/core';
import { Agent, OpenAIProvider, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import {
  type ModelView,
  openAiResultsSeen,
  type ScriptedTurn,
  startOpenAiStandIn,
} from '../../testing/src/stand-ins/index.js';
import { catalogToolOutputOf, createCatalogTools, finalizeRunBuyLinks } from '../src/index.js';
import { useOfflineEmulator } from './support/offline-emulator.js';

// createCatalogTools() with no buyLinks option: the model reads references, never a URL,
// and finalizeRunBuyLinks turns its answer into text for a shopper with the exact buy link.
const { clientOptions } = useOfflineEmulator();

/** A model that searches, then recommends the first offer by the reference it read. */
function shopper(view: ModelView): ScriptedTurn {
  if (view.request === 0) {
    return [
      {
        name: 'search_catalog',
        args: { query: 'trail running shoes', limit: 3, cursor: null, placements: ['affiliate'] },
      },
    ];
  }
  const reference = /\[\[buy:\d+\]\]/.exec(view.results[0]?.text ?? '')?.[0] ?? 'no reference';
  return `The best pick: [Buy it](${reference}).`;
}

describe('buy links by default (the SDK’s OpenAI model against the OpenAI stand-in)', () => {
  it('the model sees no http URL; finalizeRunBuyLinks gives the buy link', async () => {
    const standIn = await startOpenAiStandIn(shopper);
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
      const result = await run(agent, 'Trail running shoes?');

      const seen = openAiResultsSeen(standIn.requests[1]);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.text).toMatch(/\[\[buy:\d{9}\]\]/);
      expect(seen[0]?.text).not.toMatch(/https?:/i);
      const [output] = result.newItems.map(catalogToolOutputOf).filter(Boolean);
      const link = (output as SearchCatalogOutput).response.products[0]?.variants[0]?.url;
      expect(link).toMatch(/^https:\/\//);
      expect(result.finalOutput).not.toContain('http');

      const final = finalizeRunBuyLinks(result);
      expect(final.text).toBe(`The best pick: [Buy it](${link}).`);
      expect(final.ok).toBe(true);
    } finally {
      await standIn.close();
    }
  });
});
