import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sawSearch, shopperModel, startWorld, type World } from './support/world.js';

describe('the LangChain README: createAgent with human in the loop', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(shopperModel);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('stops before update_collection, runs it once approved, and the model still sees the search', async () => {
    const { run } = await import('../flows/langchain/agent.js');
    const questions: string[] = [];
    const messages = await run(
      'Find a rain jacket and save the first one to Summer.',
      't1',
      async (q) => {
        questions.push(q);
        return true;
      },
    );
    expect(questions).toEqual(['Run update_collection?']);
    const views = world.standIn.views;
    expect(views).toHaveLength(3);
    expect(sawSearch(views[2]!)).toBe(true);
    const answer = String(messages.at(-1)?.content);
    expect(answer).toMatch(/^Saved prod_\w+ to your summer collection\.$/);
    const summer = world.emulator.state.collections.get('col_summer');
    expect(JSON.stringify(summer?.clauses)).toContain(/prod_\w+/.exec(answer)?.[0]);
  });

  it('a rejected change changes nothing, and the model is told', async () => {
    const { run } = await import('../flows/langchain/agent.js');
    const before = JSON.stringify(world.emulator.state.collections.get('col_summer'));
    const from = world.standIn.views.length;
    await run('Find a rain jacket and save the first one to Summer.', 't2', async () => false);
    expect(JSON.stringify(world.emulator.state.collections.get('col_summer'))).toBe(before);
    const told = world.standIn.views
      .slice(from)
      .at(-1)
      ?.results.map((result) => result.text);
    expect(told?.join('\n')).toContain('The shopper said no. Do not retry.');
  });
});
