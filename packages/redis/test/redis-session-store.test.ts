import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ChatSession, ConversationTokenManager } from '@catalogkit/core/conversations';
import { SessionLockTimeoutError } from '@catalogkit/core/errors';
import { Redis } from 'ioredis';
import ioredisPackage from 'ioredis/package.json' with { type: 'json' };
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisSessionStore } from '../src/index.js';
import { type RedisServer, skipRedisTests, startRedisServer } from './support/redis-server.js';

const MINUTE = 60_000;

if (skipRedisTests) {
  console.warn(
    'redis-server is not installed: Redis store tests skipped (they fail in CI instead)',
  );
}

describe.skipIf(skipRedisTests)('RedisSessionStore against a real redis-server', () => {
  let server: RedisServer;
  let redis: Redis;
  let prefix: string;
  let testNumber = 0;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  afterEach(() => {
    testNumber += 1;
  });

  const store = (options: { lockPollMs?: number } = {}) => {
    prefix = `test${testNumber}:`;
    return new RedisSessionStore({ redis, prefix, ...options });
  };

  it(`runs on ioredis ${process.env.CATALOGKIT_IOREDIS_MAJOR} (the vitest project's alias took effect)`, () => {
    expect(ioredisPackage.version.split('.')[0]).toBe(process.env.CATALOGKIT_IOREDIS_MAJOR);
  });

  it('stores under the prefix with a PX TTL and reads back the remaining life', async () => {
    const sessions = store();
    await sessions.set('chat:1:token', 'value', 30 * MINUTE);
    expect(await redis.get(`${prefix}chat:1:token`)).toBe('value');
    const read = await sessions.get('chat:1:token');
    expect(read?.value).toBe('value');
    expect(read?.ttlMs).toBeGreaterThan(30 * MINUTE - 1_000);
    expect(read?.ttlMs).toBeLessThanOrEqual(30 * MINUTE);
  });

  it('entries expire with their TTL; no TTL means none; delete removes', async () => {
    const sessions = store();
    await sessions.set('short', 'v', 50);
    await sessions.set('forever', 'v');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await sessions.get('short')).toBeUndefined();
    expect(await sessions.get('forever')).toEqual({ value: 'v', ttlMs: undefined });
    await sessions.delete('forever');
    expect(await sessions.get('forever')).toBeUndefined();
  });

  it("a token manager keeps the session's token with TTL = the token's remaining life", async () => {
    const sessions = store();
    const manager = new ConversationTokenManager({
      key: 'chat:7:token',
      store: sessions,
      mint: async () => ({ token: 'tok_7', expiresAt: Date.now() + 20 * MINUTE }),
    });
    await manager.getToken();
    const pttl = await redis.pttl(`${prefix}chat:7:token`);
    expect(pttl).toBeGreaterThan(20 * MINUTE - 2_000);
    expect(pttl).toBeLessThanOrEqual(20 * MINUTE);
  });

  it('the lock is exclusive, times out with SessionLockTimeoutError, and frees on release', async () => {
    const sessions = store({ lockPollMs: 10 });
    const release = await sessions.lock('k', { leaseMs: 10_000, waitMs: 0 });
    await expect(sessions.lock('k', { leaseMs: 10_000, waitMs: 100 })).rejects.toBeInstanceOf(
      SessionLockTimeoutError,
    );
    await release();
    const again = await sessions.lock('k', { leaseMs: 10_000, waitMs: 0 });
    await again();
  });

  it('a lock wait ends on time when the wall clock is set back meanwhile', async () => {
    const sessions = store({ lockPollMs: 10 });
    const release = await sessions.lock('k', { leaseMs: 10_000, waitMs: 0 });
    // Only Date is faked (and keeps running): timers and performance.now() stay real.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      // The signal only ends a wait that would otherwise last the hour the clock went back.
      const waiting = sessions.lock('k', {
        leaseMs: 10_000,
        waitMs: 200,
        signal: AbortSignal.timeout(10_000),
      });
      vi.setSystemTime(Date.now() - 60 * MINUTE);
      await expect(waiting).rejects.toBeInstanceOf(SessionLockTimeoutError);
    } finally {
      vi.useRealTimers();
      await release();
    }
  });

  it('a token held with a Redis store is not handed out past its expiry when the wall clock is set back', async () => {
    const sessions = store();
    // The service's clock: real elapsed time, untouched by the faked Date below.
    const serviceEpoch = Date.now() - performance.now();
    const serviceNow = () => serviceEpoch + performance.now();
    const expiries = new Map<string, number>();
    const mint = async () => {
      const token = `tok_${expiries.size + 1}`;
      expiries.set(token, serviceNow() + 1_500);
      return { token, expiresAt: serviceNow() + 1_500, serverDate: serviceNow() };
    };
    const live = (token: string) => serviceNow() < (expiries.get(token) ?? 0);
    const options = { key: 'chat:clock:token', store: sessions, mint, refreshMarginMs: 0 };
    // Only Date is faked (and keeps running): timers and performance.now() stay real.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const holder = new ConversationTokenManager(options);
    try {
      expect(live(await holder.getToken())).toBe(true);
      vi.setSystemTime(Date.now() - 60 * MINUTE);
      await new Promise((resolve) => setTimeout(resolve, 1_700));
      const afterExpiry = await holder.getToken();
      const otherInstance = await new ConversationTokenManager(options).getToken();
      expect([afterExpiry, otherInstance].map(live)).toEqual([true, true]);
      expect(expiries.size).toBe(2);
    } finally {
      vi.useRealTimers();
      holder.close();
    }
  });

  it('a holder whose lease ran out cannot release the next holder (compare-and-delete)', async () => {
    const sessions = store({ lockPollMs: 10 });
    const stale = await sessions.lock('k', { leaseMs: 50, waitMs: 0 });
    const current = await sessions.lock('k', { leaseMs: 10_000, waitMs: 1_000 });
    await stale();
    expect(await redis.exists(`${prefix}k:lock`)).toBe(1);
    await current();
    expect(await redis.exists(`${prefix}k:lock`)).toBe(0);
  });

  it('two ChatSessions on one Redis create one conversation and mint one token', async () => {
    const sessions = store();
    const counts = { creates: 0, mints: 0, turns: 0 };
    const make = () =>
      new ChatSession({
        sessionId: 'chat:42',
        store: sessions,
        createConversation: async () => {
          counts.creates += 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { conversation_id: `conv_${counts.creates}` };
        },
        mintToken: async () => {
          counts.mints += 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { token: `tok_${counts.mints}`, expiresAt: Date.now() + 30 * MINUTE };
        },
        sendTurn: async () => ({ turn: ++counts.turns }),
      });
    await Promise.all([make().send('a'), make().send('b')]);
    expect(counts).toEqual({ creates: 1, mints: 1, turns: 2 });
  });

  describe('two token managers in separate processes', () => {
    const children: ChildProcessWithoutNullStreams[] = [];
    afterEach(() => {
      for (const child of children.splice(0)) child.kill('SIGKILL');
    });

    it('share one session and mint once', async () => {
      const mint = await startMintServer();
      try {
        const fixture = fileURLToPath(
          new URL('./fixtures/shared-session-process.ts', import.meta.url),
        );
        const env = {
          ...process.env,
          REDIS_URL: server.url,
          MINT_URL: mint.url,
          SESSION_KEY: `proc${testNumber}:chat:1:token`,
        };
        const spawned = [0, 1].map(() =>
          spawn(process.execPath, ['--import', 'tsx', '--conditions=@catalogkit/source', fixture], {
            env,
            cwd: fileURLToPath(new URL('..', import.meta.url)),
          }),
        );
        children.push(...spawned);
        const outputs = spawned.map((child) => lineReader(child));
        await Promise.all(outputs.map((next) => next())); // both "ready"
        for (const child of spawned) child.stdin.write('go\n'); // then race
        const results = await Promise.all(outputs.map((next) => next()));
        const answers = results.map(
          (line) => JSON.parse(line) as { token: string; ioredisVersion: string },
        );
        expect(answers[0]?.token).toBe(answers[1]?.token);
        for (const { ioredisVersion } of answers)
          expect(ioredisVersion.split('.')[0]).toBe(process.env.CATALOGKIT_IOREDIS_MAJOR);
        expect(mint.count()).toBe(1);
      } finally {
        await mint.close();
      }
    }, 90_000);
  });
});

/** Reads a child's stdout line by line; each call resolves with the next line. */
function lineReader(child: ChildProcessWithoutNullStreams): () => Promise<string> {
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return async () => {
    const next = await iterator.next();
    if (next.done) throw new Error(`child ended early: ${stderr}`);
    return String(next.value);
  };
}

/** A slow loopback mint endpoint (300 ms) that counts calls, to widen the race window. */
async function startMintServer() {
  let count = 0;
  const server = createServer((_req, res) => {
    count += 1;
    const token = `tok_${count}`;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ token, expiresAt: new Date(Date.now() + 30 * MINUTE).toISOString() }),
      );
    }, 300);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mint`,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
