import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { ChatSession, ConversationTokenManager } from '@catalogkit/core/conversations';
import { SessionLockTimeoutError, StoreUnavailableError } from '@catalogkit/core/errors';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisStore, type RedisStore, type RedisStoreOptions } from '../../src/index.js';
import { startBlackholeProxy } from './blackhole-proxy.js';
import { fixtureEntry } from './fixture-bundle.js';
import { type RedisServer, skipRedisTests, startRedisServer } from './redis-server.js';
import type { Connected, ConnectionInfo, Settings, StoreTarget } from './targets.js';
import { installedVersion } from './targets.js';
import { startUpstashStandIn, type UpstashStandIn } from './upstash-stand-in.js';

const MINUTE = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the suite's tests share: the server, the stand-in, and helpers to make stores. */
export interface SuiteContext {
  server: RedisServer;
  standIn: UpstashStandIn | undefined;
  info: ConnectionInfo;
  /** Connects a client (closed after the test) and wraps it in a store with a fresh prefix. */
  store(options?: RedisStoreOptions, settings?: Settings): Promise<RedisStore>;
  connect(settings?: Settings, info?: ConnectionInfo): Promise<Connected>;
  /** The prefix the last `store()` got. */
  prefix: string;
}

/**
 * Every text an error shows: message, stack, cause chain, JSON and util.inspect. A secret
 * must appear in none of them.
 */
export function everyTextOf(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: 5 }), String(error)];
  try {
    parts.push(JSON.stringify(error));
  } catch {
    // circular: inspect above already walked it
  }
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    parts.push(current.message, current.stack ?? '');
  }
  return parts.join('\n');
}

/** Asserts a failure is the store's typed error, named as expected, free of secrets. */
export function expectStoreUnavailable(
  error: unknown,
  storeName: string,
  secrets: readonly string[],
): void {
  expect(StoreUnavailableError.is(error), `not a StoreUnavailableError: ${inspect(error)}`).toBe(
    true,
  );
  const typed = error as StoreUnavailableError;
  expect(typed.store).toBe(storeName);
  expect(typed.message.startsWith(`${storeName}: `)).toBe(true);
  const text = everyTextOf(error);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

/**
 * The behaviour every Redis store must show, whatever the client: run once per client
 * package and major against a real redis-server (started for the file, killed after).
 */
export function describeStoreSuite(target: StoreTarget): void {
  if (skipRedisTests) {
    console.warn(
      `redis-server is not installed: the ${target.label} store tests are skipped (they fail in CI instead)`,
    );
  }
  describe.skipIf(skipRedisTests)(`${target.label} against a real redis-server`, () => {
    const opened: Connected[] = [];
    let testNumber = 0;
    const context = {
      prefix: '',
      standIn: undefined,
    } as unknown as SuiteContext;
    const secrets = () => [context.server.password, context.standIn?.token ?? 'no-token'];

    beforeAll(async () => {
      context.server = await startRedisServer();
      context.info = { redisUrl: context.server.url };
      if (target.viaUpstash) {
        context.standIn = await startUpstashStandIn({
          redisPort: context.server.port,
          redisPassword: context.server.password,
          token: `upstash-token-${context.server.password}`,
        });
        context.info.upstashUrl = context.standIn.url;
        context.info.upstashToken = context.standIn.token;
      }
      context.connect = async (settings = 'recommended', info = context.info) => {
        const connected = await target.connect(info, settings);
        opened.push(connected);
        return connected;
      };
      context.store = async (options = {}, settings = 'recommended') => {
        const { client } = await context.connect(settings);
        context.prefix = `t${testNumber}:`;
        return createRedisStore(client, { prefix: context.prefix, ...options });
      };
    });
    afterEach(async () => {
      testNumber += 1;
      await Promise.all(opened.splice(0).map((connection) => connection.close()));
    });
    afterAll(async () => {
      await context.standIn?.close();
      await context.server?.stop();
    });

    it(`runs on ${target.packageName} ${target.major}`, () => {
      expect(installedVersion(target.packageName).split('.')[0]).toBe(String(target.major));
    });

    it(`names itself ${target.storeName}`, async () => {
      expect((await context.store()).name).toBe(target.storeName);
    });

    it('stores under the prefix with a PX TTL and reads back the remaining life', async () => {
      const store = await context.store();
      await store.set('chat:1:token', 'value', 30 * MINUTE);
      expect(await context.server.command('GET', `${context.prefix}chat:1:token`)).toBe('value');
      const pttl = Number(await context.server.command('PTTL', `${context.prefix}chat:1:token`));
      expect(pttl).toBeGreaterThan(30 * MINUTE - 1_000);
      const read = await store.get('chat:1:token');
      expect(read?.value).toBe('value');
      expect(read?.ttlMs).toBeGreaterThan(30 * MINUTE - 1_000);
      expect(read?.ttlMs).toBeLessThanOrEqual(30 * MINUTE);
    });

    it('entries expire with their TTL; no TTL means none; a TTL ≤ 0 and delete remove', async () => {
      const store = await context.store();
      await store.set('short', 'v', 50);
      await store.set('forever', 'v');
      await store.set('gone', 'v');
      await store.set('gone', 'w', 0);
      await sleep(120);
      expect(await store.get('short')).toBeUndefined();
      expect(await store.get('gone')).toBeUndefined();
      expect(await store.get('forever')).toEqual({ value: 'v', ttlMs: undefined });
      await store.delete('forever');
      await store.delete('never-there');
      expect(await store.get('forever')).toBeUndefined();
    });

    it('reads back every value exactly as written', async () => {
      const store = await context.store();
      const values = [
        '{"conversation_id":"conv_1","token":"tok"}',
        '123',
        '1.0',
        '-0',
        'true',
        'null',
        '"quoted"',
        '[1,2]',
        '',
        'OK',
        '=starts-with-marker',
        'é 😀 ü\n\ttabs',
        'x'.repeat(200_000),
      ];
      for (const [index, value] of values.entries()) await store.set(`v${index}`, value);
      for (const [index, value] of values.entries()) {
        expect((await store.get(`v${index}`))?.value).toBe(value);
      }
    });

    it('reads what another client wrote, and writes what another client reads', async () => {
      const store = await context.store();
      await context.server.command('SET', `${context.prefix}raw`, '{"a":1}', 'PX', '60000');
      const read = await store.get('raw');
      expect(read?.value).toBe('{"a":1}');
      expect(read?.ttlMs).toBeGreaterThan(50_000);
      await store.set('mine', '42', 60_000);
      expect(await context.server.command('GET', `${context.prefix}mine`)).toBe('42');
    });

    it('setIfAbsent: of 5 instances racing on one key exactly one wins, with its value and TTL', async () => {
      const instances = await Promise.all([0, 1, 2, 3, 4].map(() => context.store()));
      for (let round = 0; round < 10; round++) {
        const key = `claim:${round}`;
        const wins = await Promise.all(
          instances.map((store, index) => store.setIfAbsent(key, `instance-${index}`, 60_000)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        const winner = wins.indexOf(true);
        const stored = await instances[0]?.get(key);
        expect(stored?.value).toBe(`instance-${winner}`);
        expect(stored?.ttlMs).toBeGreaterThan(50_000);
      }
    });

    it('setIfAbsent: a live entry blocks the claim until it expires', async () => {
      const store = await context.store();
      // A TTL that outlasts the next two commands on a busy machine (80 ms did not).
      await store.set('taken', 'first', 1_500);
      expect(await store.setIfAbsent('taken', 'second', 60_000)).toBe(false);
      expect((await store.get('taken'))?.value).toBe('first');
      // Waits for the expiry the store reports, not for a guess at when it happens.
      while ((await store.get('taken')) !== undefined) await sleep(25);
      expect(await store.setIfAbsent('taken', 'second')).toBe(true);
      expect(await store.get('taken')).toEqual({ value: 'second', ttlMs: undefined });
    });

    it('deleteIfEquals removes an entry only while it holds that value (compare-and-delete)', async () => {
      const store = await context.store();
      const other = await context.store();
      expect(await store.setIfAbsent('record', 'mine', 60_000)).toBe(true);
      await other.set('record', 'theirs', 60_000);
      // A late clear of the first writer's record meets the second writer's: it stays.
      expect(await store.deleteIfEquals('record', 'mine')).toBe(false);
      expect((await store.get('record'))?.value).toBe('theirs');
      expect(await other.deleteIfEquals('record', 'theirs')).toBe(true);
      expect(await context.server.command('EXISTS', `${context.prefix}record`)).toBe(0);
      expect(await store.deleteIfEquals('record', 'theirs')).toBe(false);
    });

    it('the lock is exclusive, times out with SessionLockTimeoutError, and frees on release', async () => {
      const store = await context.store({ lockPollMs: 10 });
      const other = await context.store({ lockPollMs: 10 });
      const release = await store.lock('k', { leaseMs: 10_000, waitMs: 0 });
      await expect(other.lock('k', { leaseMs: 10_000, waitMs: 100 })).rejects.toBeInstanceOf(
        SessionLockTimeoutError,
      );
      const waiting = other.lock('k', { leaseMs: 10_000, waitMs: 2_000 });
      await sleep(50);
      await release();
      const again = await waiting;
      await again();
      expect(await context.server.command('EXISTS', `${context.prefix}~lock:k`)).toBe(0);
    });

    it('a holder whose lease ran out cannot release the next holder (compare-and-delete)', async () => {
      const store = await context.store({ lockPollMs: 10 });
      const stale = await store.lock('k', { leaseMs: 50, waitMs: 0 });
      const current = await store.lock('k', { leaseMs: 10_000, waitMs: 1_000 });
      await stale();
      expect(await context.server.command('EXISTS', `${context.prefix}~lock:k`)).toBe(1);
      await current();
      expect(await context.server.command('EXISTS', `${context.prefix}~lock:k`)).toBe(0);
    });

    it('no data key reaches a lock: writing or deleting `<k>:lock`, `~lock:<k>` leaves the lock of <k> as it is', async () => {
      const store = await context.store({ lockPollMs: 10 });
      const crafted = ['k:lock', '~lock:k', '~~lock:k', 'lock:k'];
      const release = await store.lock('k', { leaseMs: 60_000, waitMs: 0 });
      for (const key of crafted) {
        await store.delete(key);
        expect(await store.setIfAbsent(key, 'data', 60_000)).toBe(true);
        expect((await store.get(key))?.value).toBe('data');
        await store.delete(key);
      }
      // Still held: nothing above freed it.
      await expect(store.lock('k', { leaseMs: 60_000, waitMs: 50 })).rejects.toBeInstanceOf(
        SessionLockTimeoutError,
      );
      await release();
      // And data under those names, for ten minutes, does not hold it either.
      for (const key of crafted) await store.set(key, 'data', 600_000);
      const again = await store.lock('k', { leaseMs: 10_000, waitMs: 0 });
      await again();
    });

    it('keys: `<prefix><key>` as before, a second `~` before a key starting with `~`, locks under `<prefix>~lock:`', async () => {
      const store = await context.store();
      await store.set('chat:1:conversation', 'plain');
      await store.set('~x', 'tilde');
      await store.set('~lock:k', 'data');
      const release = await store.lock('k', { leaseMs: 10_000, waitMs: 0 });
      const raw = (key: string) => context.server.command('GET', `${context.prefix}${key}`);
      expect(await raw('chat:1:conversation')).toBe('plain');
      expect(await raw('~~x')).toBe('tilde');
      expect(await raw('~~lock:k')).toBe('data');
      expect(await raw('~lock:k')).toMatch(/^[0-9a-f-]{36}$/);
      expect((await store.get('~x'))?.value).toBe('tilde');
      expect((await store.get('~lock:k'))?.value).toBe('data');
      await release();
    });

    it('a TTL beyond 2^50 ms (35,000 years) is kept as 2^50 ms, so its remaining life reads back exactly', async () => {
      const store = await context.store();
      await store.set('huge', 'v', Number.MAX_SAFE_INTEGER);
      expect(await store.setIfAbsent('huge-claim', 'v', Number.MAX_SAFE_INTEGER)).toBe(true);
      for (const key of ['huge', 'huge-claim']) {
        const ttlMs = (await store.get(key))?.ttlMs ?? Number.NaN;
        expect(Number.isSafeInteger(ttlMs)).toBe(true);
        expect(ttlMs).toBeLessThanOrEqual(2 ** 50);
        expect(ttlMs).toBeGreaterThan(2 ** 50 - 60_000);
      }
    });

    it("a crashed holder's lock frees itself after the lease; an aborted wait rejects with the reason", async () => {
      const store = await context.store({ lockPollMs: 10 });
      await store.lock('crashed', { leaseMs: 100, waitMs: 0 }); // never released
      const started = performance.now();
      const next = await store.lock('crashed', { leaseMs: 10_000, waitMs: 2_000 });
      expect(performance.now() - started).toBeLessThan(1_000);
      const reason = new Error('shopper left');
      const controller = new AbortController();
      const waiting = store.lock('crashed', {
        leaseMs: 10_000,
        waitMs: 5_000,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(reason), 50);
      await expect(waiting).rejects.toBe(reason);
      await next();
    });

    it('a key holding another Redis type fails with StoreUnavailableError naming the store', async () => {
      const store = await context.store();
      await context.server.command('HSET', `${context.prefix}hash`, 'field', 'secret-value');
      const error = await store.get('hash').catch((caught: unknown) => caught);
      expectStoreUnavailable(error, target.storeName, [...secrets(), 'secret-value']);
      expect((error as Error).message).toContain('WRONGTYPE');
      // Claims and writes still behave: the key exists, and SET replaces any type.
      expect(await store.setIfAbsent('hash', 'x')).toBe(false);
      await store.set('hash', 'now a string');
      expect((await store.get('hash'))?.value).toBe('now a string');
    });

    it('a wrong password fails every operation with StoreUnavailableError, the secret in none', async () => {
      const wrong = target.viaUpstash
        ? { ...context.info, upstashToken: 'wrong-token-a8f3e1c9' }
        : { redisUrl: context.info.redisUrl.replace(context.server.password, 'wrong-pw-7c21d9') };
      const { client } = await context.connect('recommended', wrong);
      const store = createRedisStore(client, { prefix: context.prefix, timeoutMs: 2_000 });
      const attempts: Array<() => Promise<unknown>> = [
        () => store.get('k'),
        () => store.set('k', 'value-that-is-secret'),
        () => store.setIfAbsent('k', 'value-that-is-secret'),
        () => store.delete('k'),
        () => store.lock('k', { leaseMs: 1_000, waitMs: 0 }),
      ];
      for (const attempt of attempts) {
        const started = performance.now();
        const error = await attempt().catch((caught: unknown) => caught);
        expect(performance.now() - started).toBeLessThan(4_000);
        expectStoreUnavailable(error, target.storeName, [
          ...secrets(),
          'wrong-token-a8f3e1c9',
          'wrong-pw-7c21d9',
          'value-that-is-secret',
        ]);
      }
    });

    it("a token manager keeps the session's token with TTL = the token's remaining life", async () => {
      const store = await context.store();
      const manager = new ConversationTokenManager({
        key: 'chat:7:token',
        store,
        mint: async () => ({ token: 'tok_7', expiresAt: Date.now() + 20 * MINUTE }),
      });
      await manager.getToken();
      const pttl = Number(await context.server.command('PTTL', `${context.prefix}chat:7:token`));
      expect(pttl).toBeGreaterThan(20 * MINUTE - 2_000);
      expect(pttl).toBeLessThanOrEqual(20 * MINUTE);
      manager.close();
    });

    it('a token held with a Redis store is not handed out past its expiry when the wall clock is set back', async () => {
      const store = await context.store();
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
      const options = { key: 'chat:clock:token', store, mint, refreshMarginMs: 0 };
      // Only Date is faked (and keeps running): timers and performance.now() stay real.
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      const holder = new ConversationTokenManager(options);
      try {
        expect(live(await holder.getToken())).toBe(true);
        vi.setSystemTime(Date.now() - 60 * MINUTE);
        await sleep(1_700);
        const afterExpiry = await holder.getToken();
        const otherInstance = await new ConversationTokenManager(options).getToken();
        expect([afterExpiry, otherInstance].map(live)).toEqual([true, true]);
        expect(expiries.size).toBe(2);
      } finally {
        vi.useRealTimers();
        holder.close();
      }
    });

    it('a lock wait ends on time when the wall clock is set back meanwhile', async () => {
      const store = await context.store({ lockPollMs: 10 });
      const release = await store.lock('k', { leaseMs: 10_000, waitMs: 0 });
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      try {
        // The signal only ends a wait that would otherwise last the hour the clock went back.
        const waiting = store.lock('k', {
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

    it('two ChatSessions on one Redis create one conversation and mint one token', async () => {
      const [first, second] = [await context.store(), await context.store()];
      const counts = { creates: 0, mints: 0, turns: 0 };
      const make = (store: RedisStore) =>
        new ChatSession({
          sessionId: 'chat:42',
          store,
          createConversation: async () => {
            counts.creates += 1;
            await sleep(100);
            return { conversation_id: `conv_${counts.creates}` };
          },
          mintToken: async () => {
            counts.mints += 1;
            await sleep(100);
            return { token: `tok_${counts.mints}`, expiresAt: Date.now() + 30 * MINUTE };
          },
          sendTurn: async () => ({ turn: ++counts.turns }),
        });
      await Promise.all([make(first).send('a'), make(second).send('b')]);
      expect(counts).toEqual({ creates: 1, mints: 1, turns: 2 });
    });

    it('two processes, each with its own client, share one session and mint once', async () => {
      const mint = await startMintServer();
      const children: ChildProcessWithoutNullStreams[] = [];
      try {
        const fixture = await fixtureEntry();
        const env = {
          ...process.env,
          TARGET: target.id,
          REDIS_URL: context.info.redisUrl,
          UPSTASH_URL: context.info.upstashUrl ?? '',
          UPSTASH_TOKEN: context.info.upstashToken ?? '',
          MINT_URL: mint.url,
          SESSION_KEY: `proc${testNumber}:chat:1:token`,
        };
        for (const _ of [0, 1]) {
          children.push(
            spawn(process.execPath, [fixture], {
              env,
              cwd: fileURLToPath(new URL('../..', import.meta.url)),
            }),
          );
        }
        const outputs = children.map((child) => lineReader(child));
        await Promise.all(outputs.map((next) => next())); // both "ready"
        for (const child of children) child.stdin.write('go\n'); // then race
        const answers = (await Promise.all(outputs.map((next) => next()))).map(
          (line) => JSON.parse(line) as { token: string; store: string; version: string },
        );
        expect(answers[0]?.token).toBe(answers[1]?.token);
        for (const answer of answers) {
          expect(answer.store).toBe(target.storeName);
          expect(answer.version.split('.')[0]).toBe(String(target.major));
        }
        expect(mint.count()).toBe(1);
      } finally {
        for (const child of children) child.kill('SIGKILL');
        await mint.close();
      }
    }, 90_000);

    it('a lock attempt that failed while Redis was down does not hold the lock once it is back (client defaults)', async () => {
      // ioredis by default queues a command while disconnected and sends it on reconnect,
      // after the store has reported it failed: that late SET NX must not keep the lock.
      const { client } = await context.connect('defaults');
      // 2 s, not less: on a busy machine a healthy GET can take over 500 ms (CI, load 21).
      const store = createRedisStore(client, { prefix: context.prefix, timeoutMs: 2_000 });
      await waitUntil(
        () =>
          store.get('warm-up').then(
            () => true,
            () => false,
          ),
        20_000,
      );
      await context.server.kill();
      try {
        const error = await store
          .lock('late', { leaseMs: 30_000, waitMs: 0 })
          .catch((caught: unknown) => caught);
        expectStoreUnavailable(error, target.storeName, secrets());
      } finally {
        await context.server.restart();
      }
      await waitUntil(
        async () =>
          await store.get('warm-up').then(
            () => true,
            () => false,
          ),
        10_000,
      );
      const release = await store.lock('late', { leaseMs: 30_000, waitMs: 0 });
      await release();
    });

    it('while Redis reads nothing: a write that timed out may still be applied (it says so), and nothing more is sent, so failed calls neither pile up in the client nor land later', async () => {
      const store = await context.store({ timeoutMs: PAUSED_TIMEOUT_MS });
      await store.get('warm-up');
      const value = 'v'.repeat(64 * 1024);
      context.server.pause();
      try {
        const claim = await store.setIfAbsent('claim', 'A', 60_000).catch((caught) => caught);
        expectStoreUnavailable(claim, target.storeName, secrets());
        expect((claim as Error).message).toMatch(
          /no answer within \d+ ms; it may still be applied/,
        );
        const started = performance.now();
        const later = await Promise.all(
          Array.from({ length: 40 }, (_, index) =>
            store.set(`late:${index}`, value, 60_000).catch((caught: unknown) => caught),
          ),
        );
        expect(performance.now() - started).toBeLessThan(PAUSED_TIMEOUT_MS + SLACK_MS);
        for (const error of later) {
          expectStoreUnavailable(error, target.storeName, secrets());
          expect((error as Error).message).toMatch(/SET not sent: .*nothing was written/);
        }
      } finally {
        context.server.resume();
      }
      await waitUntilWorking(store);
      // The claim was on its way: it ran once Redis read again, as its error warned.
      expect(await context.server.command('EXISTS', `${context.prefix}claim`)).toBe(1);
      expect(await context.server.command('KEYS', `${context.prefix}late:*`)).toEqual([]);
    });

    if (!target.viaUpstash) {
      it('with the README client options, a write on its way when the connection dropped is not sent again after reconnecting', async () => {
        const proxy = await startBlackholeProxy(context.server.port);
        try {
          const redisUrl = context.info.redisUrl.replace(/:\d+$/, `:${proxy.port}`);
          const { client } = await context.connect('recommended', { redisUrl });
          const store = createRedisStore(client, {
            prefix: context.prefix,
            timeoutMs: PAUSED_TIMEOUT_MS,
          });
          await store.get('warm-up');
          proxy.swallow(); // the SET below never reaches Redis...
          const error = await store.set('in-flight', 'v', 60_000).catch((caught) => caught);
          expect((error as Error).message).toMatch(
            /no answer within \d+ ms; it may still be applied/,
          );
          proxy.cut(); // ...and the connection resets; the next one works at once
          await waitUntilWorking(store);
          await sleep(100);
          expect(await context.server.command('EXISTS', `${context.prefix}in-flight`)).toBe(0);
        } finally {
          await proxy.close();
        }
      });
    }

    it('lock(): its signal ends the call at once while an attempt is unanswered, and the attempt leaves no lock', async () => {
      const store = await context.store({ lockPollMs: 10 }); // default timeoutMs: 5 s
      await store.get('warm-up');
      const reason = new Error('shopper left');
      const controller = new AbortController();
      let outcome: unknown;
      let elapsed = Number.POSITIVE_INFINITY;
      context.server.pause();
      try {
        setTimeout(() => controller.abort(reason), 50);
        const started = performance.now();
        outcome = await store
          .lock('a', { leaseMs: 1_000, waitMs: 100, signal: controller.signal })
          .catch((caught: unknown) => caught);
        elapsed = performance.now() - started;
      } finally {
        context.server.resume();
      }
      expect(outcome).toBe(reason);
      expect(elapsed).toBeLessThan(1_000);
      if (!target.viaUpstash) {
        // The SET ran once Redis read again, and the release queued behind it on the same
        // connection freed it. (Over HTTP the two requests are not ordered: there the late
        // lock may hold for its lease.)
        await sleep(100);
        expect(await context.server.command('EXISTS', `${context.prefix}~lock:a`)).toBe(0);
      }
      const release = await store.lock('a', { leaseMs: 1_000, waitMs: 3_000 });
      await release();
    });

    it('an error reply echoing the command (redis-server\'s "unknown command") shows no run of 12 characters of the value, key or password', async () => {
      const renamed = await startRedisServer(['--rename-command', 'SET', 'SET_b7e1c2']);
      let standIn: UpstashStandIn | undefined;
      try {
        const info: ConnectionInfo = { redisUrl: renamed.url };
        if (target.viaUpstash) {
          standIn = await startUpstashStandIn({
            redisPort: renamed.port,
            redisPassword: renamed.password,
            token: `echo-token-${renamed.password}`,
          });
          info.upstashUrl = standIn.url;
          info.upstashToken = standIn.token;
        }
        const { client } = await context.connect('recommended', info);
        const store = createRedisStore(client, { prefix: 'echo:', timeoutMs: 2_000 });
        const value = `tok_live_${'Z9y8'.repeat(40)}`;
        const key = 'chat-5f2a9c:token:conv_8e1d4b7a';
        const attempts = [
          () => store.set(key, value),
          () => store.setIfAbsent(key, value),
          () => store.lock(key, { leaseMs: 1_000, waitMs: 0 }),
        ];
        for (const attempt of attempts) {
          const error = await attempt().catch((caught: unknown) => caught);
          expectStoreUnavailable(error, target.storeName, []);
          expect((error as Error).message).toMatch(/failed: \w+: ERR$/);
          expectNoRunOf(everyTextOf(error), [value, key, renamed.password, standIn?.token ?? '']);
        }
      } finally {
        await standIn?.close();
        await renamed.stop();
      }
    });

    for (const settings of ['recommended', 'defaults'] as const) {
      it(`redis-server killed and restarted: each operation succeeds or throws StoreUnavailableError within the bound, and works again after (${settings} client options)`, async () => {
        await outageRun(context, target, settings, secrets());
      }, 90_000);
    }

    if (target.viaUpstash) {
      it("every request the client sent in this suite passed the stand-in's protocol check (but the wrong token's)", () => {
        const requests = context.standIn?.requests ?? [];
        expect(requests.length).toBeGreaterThan(100);
        const refused = requests.filter((request) => request.refused !== undefined);
        expect(refused.length).toBeGreaterThan(0);
        for (const request of refused) expect(request.refused).toBe('wrong bearer token');
      });
    }
  });
}

interface Outcome {
  operation: string;
  /** When the operation started, relative to the outage. */
  phase: 'before' | 'down' | 'after';
  error?: unknown;
  ms: number;
}

const OUTAGE_TIMEOUT_MS = 1_000;
const PAUSED_TIMEOUT_MS = 300;
const LOCK_WAIT_MS = 1_500;
/** Slack above each operation's own limit for a loaded machine's late timers. */
const SLACK_MS = 1_500;
const OPERATIONS = ['set', 'get', 'setIfAbsent', 'lock', 'delete'] as const;

/** One worker's round: every operation once, on keys of its own. */
function operations(store: RedisStore, worker: number, round: number) {
  const key = `w${worker}`;
  return {
    set: () => store.set(`${key}:value`, `v${round}`, 60_000),
    get: async () => {
      const read = await store.get(`${key}:value`);
      // Redis came back empty (no persistence), or a round's write was lost with it.
      if (read !== undefined && !/^v\d+$/.test(read.value)) throw new Error('wrong value');
    },
    setIfAbsent: async () => {
      if (typeof (await store.setIfAbsent(`${key}:claim:${round}`, 'mine', 60_000)) !== 'boolean')
        throw new Error('not a boolean');
    },
    lock: async () => {
      const release = await store.lock(`${key}:lock`, { leaseMs: 5_000, waitMs: LOCK_WAIT_MS });
      await release();
    },
    delete: () => store.delete(`${key}:other`),
  } satisfies Record<(typeof OPERATIONS)[number], () => Promise<unknown>>;
}

/**
 * Three workers loop over every operation while redis-server is SIGKILLed for 1.5 s and
 * started again on the same port. Every operation must end within its limit (the store's
 * `timeoutMs`, plus the lock wait for `lock`) with success or a StoreUnavailableError that
 * names the store and shows no secret; failures must have happened (the outage was seen);
 * and every operation must succeed again after the restart.
 */
async function outageRun(
  context: SuiteContext,
  target: StoreTarget,
  settings: Settings,
  secrets: readonly string[],
) {
  const { client } = await context.connect(settings);
  const store = createRedisStore(client, {
    prefix: `outage-${settings}:`,
    timeoutMs: OUTAGE_TIMEOUT_MS,
    lockPollMs: 20,
  });
  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'before';
  let stopped = false;
  const worker = async (id: number) => {
    for (let round = 0; !stopped; round++) {
      for (const [operation, run] of Object.entries(operations(store, id, round))) {
        const startedIn = phase;
        const started = performance.now();
        const error = await run().then(
          () => undefined,
          (caught: unknown) => caught ?? new Error('rejected without a reason'),
        );
        outcomes.push({ operation, phase: startedIn, error, ms: performance.now() - started });
        if (stopped) return;
      }
      await sleep(5);
    }
  };
  const workers = [0, 1, 2].map(worker);
  const everyOperationSucceeded = (inPhase: Outcome['phase']) =>
    OPERATIONS.every((operation) =>
      outcomes.some((o) => o.phase === inPhase && o.operation === operation && !o.error),
    );
  try {
    await waitUntil(() => everyOperationSucceeded('before'), 10_000);
    await context.server.kill();
    phase = 'down';
    await sleep(1_500);
    await context.server.restart();
    phase = 'after';
    await waitUntil(() => everyOperationSucceeded('after'), 30_000);
  } finally {
    stopped = true;
    await Promise.all(workers);
  }

  const failures = outcomes.filter((o) => o.error !== undefined);
  for (const failure of failures) expectStoreUnavailable(failure.error, target.storeName, secrets);
  const slowest = Math.max(
    ...outcomes.map((o) => o.ms - (o.operation === 'lock' ? LOCK_WAIT_MS : 0)),
  );
  expect(slowest).toBeLessThan(OUTAGE_TIMEOUT_MS + SLACK_MS);
  // The outage was seen (an operation started just before the kill fails, at the latest).
  expect(failures.length).toBeGreaterThan(0);
  expect(everyOperationSucceeded('after')).toBe(true);
  if (process.env.OUTAGE_REPORT) {
    const line = { target: target.label, settings, operations: outcomes.length };
    const reasons: Record<string, number> = {};
    for (const { error } of failures) {
      const reason = (error as Error).message.replace(/\d+/g, 'N');
      reasons[reason] = (reasons[reason] ?? 0) + 1;
    }
    const summary = { failed: failures.length, slowestMs: Math.round(slowest), reasons };
    console.info(JSON.stringify({ ...line, ...summary }));
  }
}

/** Waits until the store answers again (after an outage or a pause). */
async function waitUntilWorking(store: RedisStore): Promise<void> {
  await waitUntil(
    async () =>
      await store.get('warm-up').then(
        () => true,
        () => false,
      ),
    10_000,
  );
}

/**
 * Asserts that `text` holds no run of `run` characters of any secret (all of a shorter
 * one): an echo cut short, or cut in two, must not show part of a secret either.
 */
export function expectNoRunOf(text: string, secrets: readonly string[], run = 12): void {
  for (const secret of secrets.filter((candidate) => candidate.length >= 4)) {
    const size = Math.min(run, secret.length);
    for (let start = 0; start + size <= secret.length; start++) {
      const piece = secret.slice(start, start + size);
      expect(text.includes(piece), `shows ${JSON.stringify(piece)}: ${text}`).toBe(false);
    }
  }
}

async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  withinMs: number,
): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await sleep(20);
  }
}

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
