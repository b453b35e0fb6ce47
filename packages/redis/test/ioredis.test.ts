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
