import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../src/index.js';
import { skipRedisTests, startRedisServer } from './support/redis-server.js';
import { describeStoreSuite } from './support/store-suite.js';
import { ioredisOptions, ioredisTargets } from './support/targets.js';

for (const target of ioredisTargets) describeStoreSuite(target);

describe.skipIf(skipRedisTests)(
  'ioredis with stringNumbers: true (integer replies as text)',
  () => {
    it('every operation works: the remaining life, DEL and the release are read from their text', async () => {
      const server = await startRedisServer();
      const client = new Redis(server.url, { ...ioredisOptions, stringNumbers: true });
      client.on('error', () => undefined);
      try {
        await client.connect();
        const store = createRedisStore(client, { prefix: 'text:', lockPollMs: 10 });
        await store.set('k', 'v', 60_000);
        const read = await store.get('k');
        expect(read?.value).toBe('v');
        expect(read?.ttlMs).toBeGreaterThan(50_000);
        await store.set('forever', 'v');
        expect(await store.get('forever')).toEqual({ value: 'v', ttlMs: undefined });
        await store.delete('k');
        expect(await store.get('k')).toBeUndefined();
        expect(await store.setIfAbsent('claim', 'v', 60_000)).toBe(true);
        const release = await store.lock('k', { leaseMs: 10_000, waitMs: 0 });
        await release();
        expect(await server.command('EXISTS', 'text:~lock:k')).toBe(0);
      } finally {
        client.disconnect();
        await server.stop();
      }
    });
  },
);

describe.skipIf(skipRedisTests)(
  'an ioredis client made with lazyConnect and never connected',
  () => {
    for (const packageName of ['ioredis', 'ioredis-v5']) {
      it(`${packageName}: no I/O until the store's first command, which connects it and succeeds`, async () => {
        const server = await startRedisServer();
        const { Redis: LazyRedis } = (await import(packageName)) as typeof import('ioredis');
        const client = new LazyRedis(server.url, { ...ioredisOptions, lazyConnect: true });
        client.on('error', () => undefined);
        try {
          const store = createRedisStore(client, { prefix: 'lazy:' });
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(client.status).toBe('wait');
          const clients = async () =>
            String(await server.command('CLIENT', 'LIST'))
              .trim()
              .split('\n');
          expect(await clients()).toHaveLength(1); // the test's own connection only
          // Concurrent first commands share the one connect (ioredis refuses a second).
          await Promise.all([store.set('a', '1', 60_000), store.set('b', '2', 60_000)]);
          expect((await store.get('a'))?.value).toBe('1');
          expect(await server.command('GET', 'lazy:b')).toBe('2');
          expect(await clients()).toHaveLength(2);
        } finally {
          client.disconnect();
          await server.stop();
        }
      });
    }
  },
);
