import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAiMajor } from './support/ui-stream.js';
import { sawSearch, shopperModel, startWorld, type World } from './support/world.js';

const ask: ModelMessage[] = [
  { role: 'user', content: 'Find a rain jacket and add the first one to my summer collection.' },
];

/** Product ids in the summer collection's clauses, as the service holds them. */
function summerProducts(world: World): string[] {
  const summer = world.emulator.state.collections.get('col_summer');
  return JSON.stringify(summer?.clauses ?? []).match(/prod_\w+/g) ?? [];
}

describe('the approval continuation of the ai-sdk README (search, then approval in a later step)', () => {
  let world: World;
  beforeAll(async () => {
    assertAiMajor();
    world = await startWorld(shopperModel);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('generateText: the approved update runs and the model still sees the search', async () => {
    const { turn } = await import('../flows/approve-generate.js');
    const before = world.standIn.views.length;
    const questions: string[] = [];
    const { text, messages } = await turn(ask, async (question) => {
      questions.push(question);
      return true;
    });
    const views = world.standIn.views.slice(before);
    expect(questions).toEqual(['Run update_collection?']);
    // search, update (stops for approval), answer: the continuation did not search again.
    expect(views).toHaveLength(3);
    expect(sawSearch(views[2]!)).toBe(true);
    expect(text).toMatch(/^Saved prod_\w+ to your summer collection\.$/);
    expect(summerProducts(world)).toContain(/prod_\w+/.exec(text)?.[0]);
    expect(messages.filter((message) => message.role === 'tool').length).toBeGreaterThan(1);
  });

  it('streamText: the same, streamed', async () => {
    const { streamTurn } = await import('../flows/approve-stream.js');
    const before = world.standIn.views.length;
    let written = '';
    await streamTurn(
      ask,
      async () => true,
      (text) => {
        written += text;
      },
    );
    const views = world.standIn.views.slice(before);
    expect(views).toHaveLength(3);
    expect(views.every((view) => view.stream)).toBe(true);
    expect(sawSearch(views[2]!)).toBe(true);
    expect(written).toMatch(/^Saved prod_\w+ to your summer collection\.$/);
  });
});
