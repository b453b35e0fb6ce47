import { catalogToolOutputOf } from '@catalogkit/openai-agents';
import {
  assertBuyLinksVerified,
  assertKeyNotShown,
  type CatalogService,
  lastResult,
  type ModelView,
  offersIn,
  type RunningStandIn,
  startCatalogService,
  startOpenAiStandIn,
} from '@catalogkit/testing';
import { OpenAIProvider, setTracingDisabled } from '@openai/agents';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runShoppingAgent } from '../src/agent.js';

const REQUEST = 'Find running shoes under $120 and add the best one to my Summer collection.';

/** A model that searches, looks up the first offer's retailer, adds the product, then answers. */
function shopper(view: ModelView) {
  const offers = offersIn(lastResult(view, 'search_catalog')?.text ?? '');
  const first = offers[0];
  if (!lastResult(view, 'search_catalog'))
    return [{ name: 'search_catalog', args: { query: 'running shoes under $120', limit: 3 } }];
  if (!lastResult(view, 'search_websites'))
    return [{ name: 'search_websites', args: { query: 'Birch Market', country: 'GB' } }];
  const update = lastResult(view, 'update_collection');
  if (!update) {
    const clause = { product_ids: [first?.productId ?? 'prod_missing'] };
    return [
      { name: 'update_collection', args: { collection_id: 'col_summer', add_clauses: [clause] } },
    ];
  }
  return `${update.text.startsWith('Not approved') ? 'Not added.' : 'Added.'} ${first?.title}: ${first?.link}`;
}

let service: CatalogService;
let model: RunningStandIn;
beforeAll(() => setTracingDisabled(true));
beforeEach(async () => {
  service = await startCatalogService();
  model = await startOpenAiStandIn(shopper);
});
afterEach(async () => {
  await model.close();
  await service.close();
});

async function shop(approved: boolean) {
  const asked: unknown[] = [];
  const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: model.baseURL });
  const result = await runShoppingAgent(REQUEST, {
    model: await provider.getModel('gpt-4.1-mini'),
    clientOptions: service.clientOptions,
    approve: async (call) => {
      asked.push(call);
      return approved ? { approved } : { approved, reason: 'not this one' };
    },
  });
  return { ...result, asked };
}

describe('runShoppingAgent (OpenAI Agents SDK) against the emulator and a stand-in of OpenAI', () => {
  it('asks before the update, applies it once, answers with the exact buy link', async () => {
    const { text, items, asked } = await shop(true);

    expect(asked).toEqual([
      {
        toolName: 'update_collection',
        input: expect.objectContaining({ collection_id: 'col_summer' }),
      },
    ]);
    const summer = service.emulator.state.collections.get('col_summer');
    const productId = offersIn(lastResult(model.views[1]!, 'search_catalog')!.text)[0]?.productId;
    expect(
      summer?.clauses.filter((clause) => clause.product_ids.includes(productId!)),
    ).toHaveLength(1);
    // The model read a reference; the shopper gets the link the catalog gave, byte for byte.
    expect(lastResult(model.views.at(-1)!, 'search_catalog')?.text).toContain('[[buy:');
    expect(text).toMatch(/^Added\. .+: https:\/\//);
    assertBuyLinksVerified(text, service, { atLeast: 1 });
    assertKeyNotShown(service, { model, answer: text });
    // The application gets every tool's full result on the run's items.
    const outputs = items.flatMap((item) => catalogToolOutputOf(item) ?? []);
    expect(outputs.map((output) => Object.keys(output).sort())).toEqual([
      ['request', 'response', 'tier'],
      ['request', 'response'],
      ['request', 'response'],
    ]);
  });

  it('a denied update is not sent, and the model reads the reason', async () => {
    const { text, asked } = await shop(false);

    expect(asked).toHaveLength(1);
    expect(service.emulator.stats.count('PATCH /v1/collections/:collection_id')).toBe(0);
    expect(lastResult(model.views.at(-1)!, 'update_collection')?.text).toBe(
      'Not approved: not this one. Do not retry.',
    );
    expect(text).toMatch(/^Not added\. /);
    assertBuyLinksVerified(text, service, { atLeast: 1 });
  });
});
