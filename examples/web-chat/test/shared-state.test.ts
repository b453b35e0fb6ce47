import { existsSync } from 'node:fs';
import { type CatalogStore, MemoryCatalogStore } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedRedis, spawnRedisServer } from '../src/dev/redis-server.js';
import { connectRedisStore, type SharedStore } from '../src/dev/shared-store.js';
import { createScriptedModel } from '../src/scripted-model.js';
import { StoreUsedApprovals } from '../src/security/approvals.js';
import {
  MemoryConversationOwners,
  StoreConversationOwners,
} from '../src/security/conversation-owners.js';
import { StoreRateLimiter } from '../src/security/store-rate-limit.js';
import { type RunningWebChat, startWebChat } from '../src/server.js';
import { Shopper } from './support/api.js';
import { PATCH_ROUTE } from './support/app.js';
import { ChatDriver, reasonOf } from './support/chat.js';
import { PAGE_DIR, SECRET_KEY } from './support/constants.js';
import { redisMissing } from './support/instances.js';

// The web chat's shared state on the store interface: in memory with a stepped clock (the
// arithmetic), and on a real redis-server with two connections standing for two instances
// (the races).

describe('StoreRateLimiter (memory store, stepped clock)', () => {
  it('allows the burst, then one request per interval, and says how long to wait', async () => {
    let now = 0;
    const store = new MemoryCatalogStore({ now: () => now });
    const limiter = new StoreRateLimiter(store, 'test', { burst: 3, perMinute: 6 });
    const takes = async (count: number) => {
      const waits = [];
      for (let index = 0; index < count; index++) waits.push(await limiter.take('client'));
      return waits;
    };
    expect(await takes(4)).toEqual([undefined, undefined, undefined, 10]);
    now += 4_000;
    expect(await limiter.take('client')).toBe(6);
    now += 6_000;
    expect(await takes(2)).toEqual([undefined, 10]);
    // Another client has its own bucket.
    expect(await limiter.take('other')).toBe(undefined);
    // Idle for a full refill: the key is gone (a full bucket is no key), the burst is back.
    now += 60_000;
    expect(await store.get('webchat:rate:test:client')).toBe(undefined);
    expect(await takes(4)).toEqual([undefined, undefined, undefined, 10]);
  });

  it('counts concurrent requests one at a time: 50 at once, exactly the burst allowed', async () => {
    const limiter = new StoreRateLimiter(new MemoryCatalogStore(), 'test', {
      burst: 5,
      perMinute: 1,
    });
    const waits = await Promise.all(Array.from({ length: 50 }, () => limiter.take('client')));
    expect(waits.filter((wait) => wait === undefined)).toHaveLength(5);
  });
});

describe('StoreUsedApprovals and StoreConversationOwners (memory store)', () => {
  it('claims a nonce once while the store remembers issuing it; the store’s clock ends its life', async () => {
    let clock = 0;
    const store = new MemoryCatalogStore({ now: () => clock });
    const used = new StoreUsedApprovals(store);
    await used.issue('nonce_a', 900_000);
    await used.issue('nonce_b', 900_000);
    expect(await used.markUsed('nonce_a')).toBe('fresh');
    expect(await used.markUsed('nonce_a')).toBe('used');
    expect(await used.markUsed('nonce_b')).toBe('fresh');
    // Never issued (or issued to a store that has lost it): refused, not claimed.
    expect(await used.markUsed('nonce_never')).toBe('unknown');
    expect(await store.get('webchat:approval:nonce_never')).toBe(undefined);
    clock = 900_000 - 1;
    expect(await used.markUsed('nonce_a')).toBe('used');
    // Past its life by the store's clock: refused whatever an instance's clock says, and
    // the claim outlives the record (a record is never seen without its claim).
    clock = 900_000;
    expect(await used.markUsed('nonce_a')).toBe('unknown');
    expect(await store.get('webchat:approval:nonce_a')).toMatchObject({ value: '1' });
    clock = 900_000 + 60_000;
    expect(await store.get('webchat:approval:nonce_a')).toBe(undefined);
    expect(await used.markUsed('nonce_a')).toBe('unknown');
  });

  it('remembers a conversation’s owner for a session cookie’s life (12 h)', async () => {
    let clock = 0;
    const owners = new StoreConversationOwners(new MemoryCatalogStore({ now: () => clock }));
    await owners.remember('conv_1', 'session_a');
    expect(await owners.ownerOf('conv_1')).toBe('session_a');
    expect(await owners.ownerOf('conv_2')).toBe(undefined);
    clock = 12 * 3_600_000 - 1;
    expect(await owners.ownerOf('conv_1')).toBe('session_a');
    clock = 12 * 3_600_000;
    expect(await owners.ownerOf('conv_1')).toBe(undefined);
  });

  it('in process memory, the newest conversations are kept, the oldest forgotten', async () => {
    const owners = new MemoryConversationOwners(2);
    for (const id of ['conv_1', 'conv_2', 'conv_3']) await owners.remember(id, 'session_a');
    expect(await owners.ownerOf('conv_1')).toBe(undefined);
    expect(await owners.ownerOf('conv_3')).toBe('session_a');
  });
});

const noRedis = redisMissing();

describe.skipIf(noRedis)(
  `on a real redis-server, two connections as two instances${noRedis ? ` (skipped: ${noRedis})` : ''}`,
  () => {
    let redis: SpawnedRedis;
    let instances: SharedStore[];
    const stores = (): [CatalogStore, CatalogStore] => [
      instances[0]?.store as CatalogStore,
      instances[1]?.store as CatalogStore,
    ];
    beforeAll(async () => {
      redis = await spawnRedisServer();
      instances = [await connectRedisStore(redis.url), await connectRedisStore(redis.url)];
    });
    afterAll(async () => {
      for (const instance of instances ?? []) await instance.close();
      await redis?.stop();
    });

    it('200 requests of one client at once, half through each instance: exactly the burst allowed', async () => {
      const limit = { burst: 10, perMinute: 1 };
      const limiters = stores().map((store) => new StoreRateLimiter(store, 'race', limit));
      const waits = await Promise.all(
        Array.from({ length: 200 }, (_, index) => limiters[index % 2]?.take('client')),
      );
      expect(waits.filter((wait) => wait === undefined)).toHaveLength(10);
      expect(waits.every((wait) => wait === undefined || wait >= 1)).toBe(true);
    });

    it('one nonce claimed by both instances at once, 50 times: each claimed exactly once', async () => {
      const [a, b] = stores().map((store) => new StoreUsedApprovals(store));
      for (let round = 0; round < 50; round++) {
        const nonce = `race_${round}`;
        await a?.issue(nonce, 60_000);
        const results = await Promise.all([a?.markUsed(nonce), b?.markUsed(nonce)]);
        expect(results.sort()).toEqual(['fresh', 'used']);
      }
    });

    it('an approval used before Redis lost its data (FLUSHALL) is refused afterwards, never claimed again', async () => {
      const [a, b] = stores().map((store) => new StoreUsedApprovals(store));
      await a?.issue('lost_1', 60_000);
      await a?.issue('lost_2', 60_000);
      expect(await a?.markUsed('lost_1')).toBe('fresh');
      const flusher = new Redis(redis.url);
      try {
        await flusher.flushall();
      } finally {
        flusher.disconnect();
      }
      // The claim went with the data; the record of the approval's issue went too.
      expect(await b?.markUsed('lost_1')).toBe('unknown');
      expect(await a?.markUsed('lost_1')).toBe('unknown');
      // Issued, never used, then lost: refused as well (the shopper asks again).
      expect(await b?.markUsed('lost_2')).toBe('unknown');
    });

    it('the launcher’s own redis-server keeps an append-only file synced on every write, evicts nothing, and removes its folder', async () => {
      const launched = await spawnRedisServer();
      const client = new Redis(launched.url);
      let dir = '';
      try {
        const setting = async (name: string) => ((await client.config('GET', name)) as string[])[1];
        expect(await setting('appendonly')).toBe('yes');
        expect(await setting('appendfsync')).toBe('always');
        expect(await setting('maxmemory-policy')).toBe('noeviction');
        dir = (await setting('dir')) ?? '';
        expect(dir).toMatch(/webchat-redis-/);
        expect(existsSync(dir)).toBe(true);
      } finally {
        client.disconnect();
        await launched.stop();
      }
      expect(existsSync(dir)).toBe(false);
    });

    it('a conversation remembered by one instance is known to the other', async () => {
      const [a, b] = stores().map((store) => new StoreConversationOwners(store));
      await a?.remember('conv_shared', 'session_a');
      expect(await b?.ownerOf('conv_shared')).toBe('session_a');
    });
  },
);

describe('two servers sharing one store, their clocks 20 minutes apart', () => {
  const running: Array<RunningEmulator | RunningWebChat> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });

  it('an approval used through one is refused through the other once its life is over by the store’s clock', async () => {
    // One store clock (as Redis has one), and two instances' wall clocks: B runs 20 minutes
    // behind A, so by B's clock the approval A sealed is fresh long after it expired.
    let elapsed = 0;
    const start = Date.now();
    const store = new MemoryCatalogStore({ now: () => elapsed });
    const emulator = await startEmulator({ keys: { valid: SECRET_KEY } });
    running.push(emulator);
    const serve = async (skewMs: number) => {
      const chat = await startWebChat({
        catalog: { apiKey: SECRET_KEY, baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
        model: createScriptedModel({ wordDelayMs: 0 }),
        pageDir: PAGE_DIR,
        store,
        approvalSecret: 'shared approval secret',
        sessionSecret: 'shared session secret',
        approvalTtlSeconds: 60,
        now: () => start + elapsed + skewMs,
      });
      running.push(chat);
      return chat;
    };
    const a = await serve(0);
    const b = await serve(-20 * 60_000);
    const onA = new Shopper(a.url);
    const chat = new ChatDriver(onA);
    await chat.say('trail running shoes');
    await chat.say('add the first two to my Summer collection');
    const approved = await chat.answer(true);
    expect(approved.status).toBe(200);
    expect(emulator.stats.count(PATCH_ROUTE)).toBe(1);

    const onB = new Shopper(b.url);
    onB.cookie = onA.cookie;
    // At once: the claim is shared.
    const replayed = await onB.post('/api/chat', approved.recorded);
    expect(replayed.status).toBe(409);
    // 11 minutes on: the approval (60 s), its claim and the update memory (10 minutes) are
    // past their lives by the store's clock; by B's clock the approval has 9 minutes left.
    elapsed += 11 * 60_000;
    const late = await onB.post('/api/chat', approved.recorded);
    expect(late.status, await late.clone().text()).toBe(403);
    expect(await reasonOf(late)).toBe('This approval has expired: ask for the change again.');
    expect(emulator.stats.count(PATCH_ROUTE)).toBe(1);
  });
});
