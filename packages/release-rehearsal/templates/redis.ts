// The Redis token store with the application's own ioredis (a peer dependency): the README's
// chat session against the emulator's conversation endpoints, then one tool call.
import { CatalogClient, createCatalogToolList } from '@catalogkit/core';
import {
  ChatSession,
  createHttpTokenMinter,
  createTurnSender,
} from '@catalogkit/core/conversations';
import { createRedisStore } from '@catalogkit/redis';
import { Redis } from 'ioredis';
import { checkSearch, emulatorEnv } from './check.js';

const clientOptions = emulatorEnv();
const redis = new Redis(process.env.REDIS_URL ?? '');
try {
  const store = createRedisStore(redis, { prefix: 'rehearsal:' });
  const client = new CatalogClient(clientOptions);
  const chat = new ChatSession({
    sessionId: 'shopper-1',
    store,
    createConversation: ({ signal }) => client.conversations.create({}, { signal }),
    mintToken: ({ conversationId, signal }) =>
      createHttpTokenMinter({ client, conversationId })({ signal }),
    sendTurn: createTurnSender({ client }),
  });
  const turn = await chat.send('Hello');
  if (typeof turn.reply.content !== 'string') throw new Error('no reply');
  const stored = await redis.keys('rehearsal:*');
  if (stored.length === 0) throw new Error('the session was not stored in Redis');

  const [search] = createCatalogToolList({ include: ['search_catalog'], clientOptions });
  if (search?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  const output = await search.execute({
    query: 'trail running shoes',
    limit: 2,
    cursor: null,
    placements: null,
  });
  const productId = checkSearch(output, search.toModelOutput(output), 2);
  console.log(JSON.stringify({ ok: true, productId, redisKeys: stored.length }));
} finally {
  redis.disconnect();
}
