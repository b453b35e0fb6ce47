import type { ModelScript } from '@catalogkit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sawSearch, startWorld, type World } from './support/world.js';

const PRODUCT = /\| (prod_\w+)/;

/** Searches when asked to find; saves the first product it has read when asked to save. */
const model: ModelScript = (view) => {
  const words = view.userMessages.at(-1) ?? '';
  const search = view.results.find((result) => PRODUCT.test(result.text));
  if (/find/i.test(words)) {
    return search
      ? 'Here is a rain jacket.'
      : [{ name: 'search_catalog', args: { query: 'rain jacket' } }];
  }
  if (!search) return [{ name: 'search_catalog', args: { query: 'rain jacket' } }];
  const productId = PRODUCT.exec(search.text)?.[1] ?? 'missing';
  if (view.calls.some((call) => call.name === 'update_collection')) return `Saved ${productId}.`;
  const clause = { brand_ids: [], website_ids: [], category_ids: [], product_ids: [productId] };
  return [
    { name: 'update_collection', args: { collection_id: 'col_summer', add_clauses: [clause] } },
  ];
};

describe('the ai-sdk README: ToolLoopAgent across turns', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(model);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the second turn sees the first turn’s search; the change runs once approved', async () => {
    const { shoppingAgent, turn } = await import('../flows/tool-loop-agent.js');
    const questions: string[] = [];
    const agent = shoppingAgent(async (question) => {
      questions.push(question);
      return true;
    });
    const first = await turn(agent, [], 'Find a rain jacket.');
    expect(first.text).toBe('Here is a rain jacket.');
    const from = world.standIn.views.length;
    const second = await turn(agent, first.history, 'Save it to my summer collection.');
    const views = world.standIn.views.slice(from);
    // update (approved while the agent runs), answer: no second search.
    expect(views).toHaveLength(2);
    expect(sawSearch(views[0]!)).toBe(true);
    expect(questions).toEqual(['Change col_summer?']);
    expect(second.text).toMatch(/^Saved prod_\w+\.$/);
    const summer = world.emulator.state.collections.get('col_summer');
    expect(JSON.stringify(summer?.clauses)).toContain(/prod_\w+/.exec(second.text)?.[0]);
  });
});
