import type { SearchCatalogOutput } from '@catalogkit/core';
import { Agent, run } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { searchCatalog } from '../../core/test/support/strict-inputs.js';
import { ScriptedModel } from '../demo/scripted-model.js';
import { createCatalogTools, finalizeRunBuyLinks, toolOutputsOf } from '../src/index.js';
import { useOfflineEmulator } from './support/offline-emulator.js';

const { emulator } = useOfflineEmulator();

function shopperWriting(
  answer: (seen: ReadonlyMap<string, string>) => string,
  buyLinks: 'inline' | 'reference',
) {
  const tools = createCatalogTools({
    clientOptions: {
      apiKey: emulator().keys.valid,
      baseUrl: emulator().baseUrl,
      mcpUrl: emulator().mcpUrl,
    },
    include: ['search_catalog'],
    buyLinks,
  });
  const model = new ScriptedModel(
    [() => [{ name: 'search_catalog', input: searchCatalog('rain jacket', { limit: 2 }) }]],
    answer,
  );
  return new Agent({ name: 'Shopper', instructions: 'Help.', model, tools });
}

/** The first buy link of the run's catalog search, as the service sent it. */
function firstLink(outputs: Array<{ toolName: string; output: unknown }>): string {
  expect(outputs[0]?.toolName).toBe('search_catalog');
  const search = outputs[0]?.output as SearchCatalogOutput;
  const url = search.response.products[0]?.variants[0]?.url;
  if (!url) throw new Error('no buy link in the search result');
  return url;
}

describe('finalizeRunBuyLinks', () => {
  it('turns the references a model wrote (buyLinks: reference) into the exact buy links', async () => {
    const agent = shopperWriting((seen) => {
      const reference = /\[\[buy:\d+\]\]/.exec(seen.get('call_0_0') ?? '')?.[0] ?? 'none';
      return `The best one: [Buy it](${reference}).`;
    }, 'reference');
    const result = await run(agent, 'A rain jacket, please');
    expect(String(result.finalOutput)).toMatch(/^The best one: \[Buy it\]\(\[\[buy:\d+\]\]\)\.$/);

    const finalized = finalizeRunBuyLinks(result);
    const link = firstLink(toolOutputsOf(result));
    expect(finalized.text).toBe(`The best one: [Buy it](${link}).`);
    expect(finalized.ok).toBe(true);
  });

  it('reports a corrupted copy of an inline buy link, and a reference it cannot place', async () => {
    const agent = shopperWriting((seen) => {
      const link =
        /https:\/\/go\.catalogkit\.test\/\S+/.exec(seen.get('call_0_0') ?? '')?.[0] ?? '';
      // A model that drops a character from the signature, and invents a reference.
      return `Buy: ${link.slice(0, -1)} or [[buy:999999999]]`;
    }, 'inline');
    const result = await run(agent, 'A rain jacket, please');
    const finalized = finalizeRunBuyLinks(result);
    expect(finalized.text).toContain(`Buy: ${firstLink(toolOutputsOf(result)).slice(0, -1)} or`);
    expect(finalized.verified).toEqual([]);
    expect(finalized.issues).toHaveLength(1);
    expect(finalized.unresolved).toHaveLength(1);
    expect(finalized.ok).toBe(false);
  });
});
