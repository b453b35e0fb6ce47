import type { ModelScript } from '@catalogkit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RedisServer,
  skipRedisTests,
  startRedisServer,
} from '../../redis/test/support/redis-server.js';
import {
  assertAiMajor,
  assistantMessage,
  chatRequest,
  uiChunks,
  userMessage,
} from './support/ui-stream.js';
import { startWorld, type World } from './support/world.js';

/** Searches on the first question; answers from what it was shown on the second. */
const chatModel: ModelScript = (view) => {
  if (view.userMessages.length === 1 && view.results.length === 0) {
    return [{ name: 'search_catalog', args: { query: 'rain jacket', limit: 2 } }];
  }
  return view.userMessages.length === 1 ? 'Here are two rain jackets.' : 'The first is cheaper.';
};

describe.skipIf(skipRedisTests)('the Next.js route of the root README, on Redis', () => {
  let world: World;
  let redis: RedisServer;
  beforeAll(async () => {
    assertAiMajor();
    redis = await startRedisServer();
    world = await startWorld(chatModel);
    process.env.REDIS_URL = redis.url;
  });
  afterAll(async () => {
    await world?.close();
    await redis?.stop();
  });

  it('streams a turn to useChat, and the next turn shows the model the compact view', async () => {
    const { POST } = await import('../flows/next/app/api/chat/route.js');
    const question = userMessage('u1', 'Find rain jackets');
    const first = await POST(chatRequest([question]));
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    const chunks = await uiChunks(first);
    const output = chunks.find((chunk) => chunk.type === 'tool-output-available');
    expect(JSON.stringify(output)).toMatch(/"products":\[\{/); // the app gets the full result
    const answer = await assistantMessage(chunks);
    expect(answer.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual([
      'Here are two rain jackets.',
    ]);

    const before = world.standIn.views.length;
    const second = await POST(
      chatRequest([question, answer, userMessage('u2', 'Which one is cheaper?')]),
    );
    const reply = await assistantMessage(await uiChunks(second));
    expect(
      reply.parts.some((part) => part.type === 'text' && part.text === 'The first is cheaper.'),
    ).toBe(true);
    // The earlier search, converted with `{ tools }`: the compact view, not the raw JSON.
    const [seen] = world.standIn.views[before]!.results;
    expect(seen?.text).toMatch(/\| prod_\w+/);
    expect(seen?.text).not.toContain('"products"');
    // Searches with no rate-limit pause in force read no store, and the route's Redis client
    // connects at its first command: only this test's own connection is open.
    const clients = String(await redis.command('CLIENT', 'LIST'))
      .trim()
      .split('\n');
    expect(clients.length).toBe(1);
  });
});
