import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@catalogkit/emulator';
import { Redis } from 'ioredis';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startInstances } from '../src/dev/instances.js';
import { RedisServerUnavailableError, spawnRedisServer } from '../src/dev/redis-server.js';
import { answerApproval, Shopper } from './support/api.js';
import { PAGE_DIR, PATCH_ROUTE, SECRET_KEY } from './support/app.js';
import { chromiumMissing, launchChromium, type OpenedPage, openPage } from './support/browser.js';
import { ChatDriver, reasonOf } from './support/chat.js';
import {
  INSTANCE_NODE_ARGS,
  instanceEntry,
  redisMissing,
  startTwoInstanceApp,
  type TwoInstanceApp,
} from './support/instances.js';
import { expectNothingLeaked } from './support/leaks.js';
import { startVolatileRedis } from './support/volatile-redis.js';

// The web chat as `pnpm chat --instances 2` runs it: two instance processes sharing one
// redis-server, behind the round-robin proxy, against the emulator in this process. Every
// request goes to the other instance than the one before, so each guarantee below holds
// only if it does not live in one process's memory.

const noRedis = redisMissing();
const noChromium = chromiumMissing();
const WAIT = { timeout: 60_000 };
const CONVERSATIONS_ROUTE = 'POST /v1/conversations';

type App = TwoInstanceApp;
const apps: App[] = [];
afterEach(async () => {
  // Closing checks that every request alternated between the instances (expectAlternated).
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function start(
  chatOptions: Parameters<typeof startTwoInstanceApp>[1] = {},
  redisUrl?: string,
): Promise<App> {
  const app = await startTwoInstanceApp({}, chatOptions, redisUrl);
  apps.push(app);
  return app;
}

/** The instances that served the POSTs to `path`, in order. */
function servedBy(app: App, path: string): number[] {
  return app.proxy.proxied
    .filter((request) => request.method === 'POST' && request.path === path)
    .map((request) => request.instance);
}

/** A search, then "add" asked: the chat waits for the shopper's Approve. */
async function askToSave(chat: ChatDriver): Promise<void> {
  await chat.say('trail running shoes');
  await chat.say('add the first two to my Summer collection');
}

/** Empties the Redis at `url` (FLUSHALL), as an operator or a failover might. */
async function flushAll(url: string): Promise<void> {
  const client = new Redis(url);
  try {
    await client.flushall();
  } finally {
    client.disconnect();
  }
}

/** The history with its pending approval answered, not sent: the body to post (or replay). */
function approvedBody(chat: ChatDriver): string {
  const last = chat.messages.pop();
  if (!last) throw new Error('no message');
  chat.messages.push(answerApproval(last, true));
  return chat.body();
}

describe.skipIf(noRedis)(
  `two instances behind one URL${noRedis ? ` (skipped: ${noRedis})` : ''}`,
  () => {
    it('sends every request to the other instance than the one before; the proxy counts each', async () => {
      const app = await start();
      const shopper = new Shopper(app.chat.url);
      for (let index = 0; index < 5; index++) {
        expect((await fetch(app.chat.url)).status).toBe(200);
        const response = await shopper.post('/api/conversation-token', {});
        expect(response.status, await reasonOf(response)).toBe(200);
      }
      expect(app.proxy.proxied.map((request) => request.instance)).toEqual([
        0, 1, 0, 1, 0, 1, 0, 1, 0, 1,
      ]);
      expect(app.proxy.counts()).toEqual([5, 5]);
      expect(app.proxy.answered()).toEqual([5, 5]);
      // Two processes, on two ports.
      expect(new Set(app.proxy.pids).size).toBe(2);
      expect(new Set(app.proxy.instanceUrls).size).toBe(2);
    });

    it('an approval used through one instance is refused through the other (409); the update ran once', async () => {
      const app = await start();
      const shopper = new Shopper(app.chat.url);
      const chat = new ChatDriver(shopper);
      await askToSave(chat);
      const approved = await chat.answer(true);
      expect(approved.status).toBe(200);
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
      const clauses = structuredClone(app.emulator.state.collections.get('col_summer')?.clauses);

      for (let replay = 0; replay < 2; replay++) {
        const response = await shopper.post('/api/chat', approved.recorded);
        expect(response.status).toBe(409);
        expect(await reasonOf(response)).toBe('This approval was already used.');
      }
      // Sealed by one instance (the "add" turn), used through the other, replayed through both.
      const [, asked, used, ...replays] = servedBy(app, '/api/chat');
      expect(used).not.toBe(asked);
      expect(new Set(replays)).toEqual(new Set([0, 1]));
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
      expect(app.emulator.state.collections.get('col_summer')?.clauses).toEqual(clauses);
    });

    it('one approval posted twice at once, one copy to each instance: exactly one runs', async () => {
      const app = await start();
      const shopper = new Shopper(app.chat.url);
      const chat = new ChatDriver(shopper);
      await askToSave(chat);
      const body = approvedBody(chat);
      const responses = await Promise.all([
        shopper.post('/api/chat', body),
        shopper.post('/api/chat', body),
      ]);
      await Promise.all(responses.map((response) => response.text()));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      expect(new Set(servedBy(app, '/api/chat').slice(-2))).toEqual(new Set([0, 1]));
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
    });

    it('a change of unknown outcome approved again through the other instance is refused by the shared guard: one PATCH', async () => {
      const app = await start();
      const shopper = new Shopper(app.chat.url);
      const chat = new ChatDriver(shopper);
      await askToSave(chat);
      // The service applies the add, then the connection drops: its outcome is unknown.
      app.emulator.faults.set({ routes: [PATCH_ROUTE], drop: 'after', times: 1 });
      expect((await chat.answer(true)).status).toBe(200);
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
      await chat.say('add the first two to my Summer collection');
      // The second Approve goes to the instance that did not run the first.
      const ranOn = servedBy(app, '/api/chat')[2] as number;
      if (app.proxy.proxied.at(-1)?.instance !== ranOn) {
        await fetch(app.chat.url).then((response) => response.arrayBuffer());
      }
      expect((await chat.answer(true)).status).toBe(200);
      expect(servedBy(app, '/api/chat').at(-1)).toBe(1 - ranOn);
      // Refused before sending, in the other process: the write-ahead record is in the Redis.
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
      const selected = (app.emulator.state.collections.get('col_summer')?.clauses ?? []).flatMap(
        (clause) => clause.product_ids,
      );
      expect(selected.length).toBe(new Set(selected).size);
    });

    it('a conversation created through one instance continues through the other; no other session gets it', async () => {
      const app = await start();
      const owner = new Shopper(app.chat.url);
      const created = await owner.post('/api/conversation-token', {});
      expect(created.status).toBe(200);
      const { conversationId } = (await created.json()) as { conversationId: string };
      const thief = new Shopper(app.chat.url);
      for (let attempt = 0; attempt < 2; attempt++) {
        const stolen = await thief.post('/api/conversation-token', { conversationId });
        expect(stolen.status).toBe(404);
        expect(await reasonOf(stolen)).toBe('Unknown conversation.');
      }
      for (let turn = 0; turn < 2; turn++) {
        const minted = await owner.post('/api/conversation-token', { conversationId });
        expect(minted.status, await reasonOf(minted)).toBe(200);
        expect(((await minted.json()) as { conversationId: string }).conversationId).toBe(
          conversationId,
        );
      }
      const token = '/api/conversation-token';
      const [createdOn, , , ...mintedOn] = servedBy(app, token);
      expect(mintedOn).toContain(1 - (createdOn as number));
      expect(app.emulator.state.conversations.size).toBe(1);
      expect(app.emulator.state.conversations.get(conversationId)?.tokens).toHaveLength(3);
    });

    it('rate limits count a client across both instances', async () => {
      const app = await start({
        rateLimits: {
          chat: { session: { burst: 2, perMinute: 1 }, address: { burst: 100, perMinute: 100 } },
          conversation: {
            session: { burst: 100, perMinute: 100 },
            address: { burst: 3, perMinute: 1 },
          },
        },
      });
      // One session: 2 chat requests, then 429 on either instance.
      const shopper = new Shopper(app.chat.url);
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const response = await shopper.post('/api/chat', { id: 'c', messages: [] });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual([400, 400, 429, 429]);
      expect(new Set(servedBy(app, '/api/chat'))).toEqual(new Set([0, 1]));

      // One address, a fresh session each time, each claiming another address: the proxy
      // replaces X-Forwarded-For, so the per-address limit (a burst of 3) still holds.
      const created = [];
      for (let attempt = 0; attempt < 8; attempt++) {
        const response = await new Shopper(app.chat.url).post(
          '/api/conversation-token',
          {},
          { 'x-forwarded-for': `203.0.113.${attempt}` },
        );
        created.push(response.status);
        await response.arrayBuffer();
      }
      expect(created).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
      expect(app.emulator.stats.count(CONVERSATIONS_ROUTE)).toBe(3);
    });

    it('Origin reaches the instances unchanged: cross-site and instance-origin requests are refused', async () => {
      const app = await start();
      const before = app.emulator.stats.snapshot();
      const origins = [
        'https://evil.example',
        ...app.proxy.instanceUrls.map((url) => new URL(url).origin),
      ];
      for (const origin of [...origins, ...origins]) {
        const response = await fetch(new URL('/api/conversation-token', app.chat.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: '{}',
        });
        expect(response.status).toBe(403);
        expect(response.headers.get('set-cookie')).toBe(null);
      }
      expect(new Set(app.proxy.proxied.map((request) => request.instance))).toEqual(
        new Set([0, 1]),
      );
      expect(app.emulator.stats.snapshot()).toEqual(before);
    });

    it('streams the chat answer through the proxy as the instance writes it (no buffering)', async () => {
      const app = await start();
      const response = await new Shopper(app.chat.url).post(
        '/api/chat',
        JSON.stringify({
          id: 'chat_1',
          messages: [
            { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'trail running shoes' }] },
          ],
        }),
      );
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const arrivals: number[] = [];
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        arrivals.push(performance.now());
        text += new TextDecoder().decode(value);
      }
      // The scripted model writes a word every 10 ms: a buffering proxy would deliver it at once.
      expect(text.match(/"type":"text-delta"/g)?.length ?? 0).toBeGreaterThan(5);
      expect(arrivals.length).toBeGreaterThan(5);
      expect((arrivals.at(-1) as number) - (arrivals[0] as number)).toBeGreaterThan(50);
    });

    it('an approval used before Redis lost its data (a restart without persistence, FLUSHALL) is refused afterwards: one PATCH each', async () => {
      // The Redis of the finding: no snapshot, no append-only file, so a restart is empty.
      const redis = await startVolatileRedis();
      try {
        const app = await start({}, redis.url);
        const shopper = new Shopper(app.chat.url);
        const patches = () => app.emulator.stats.count(PATCH_ROUTE);
        /** Replays `body` until the instances reach Redis again; the last answer. */
        const replay = async (body: string): Promise<Response> => {
          for (let attempt = 0; ; attempt++) {
            const response = await shopper.post('/api/chat', body);
            if (response.status !== 503 || attempt >= 120) return response;
            await response.arrayBuffer();
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        };
        const lose = [() => redis.restart(), () => flushAll(redis.url)];
        for (const [round, loseData] of lose.entries()) {
          const chat = new ChatDriver(shopper, `chat_${round}`);
          await askToSave(chat);
          const approved = await chat.answer(true);
          expect(approved.status).toBe(200);
          expect(patches()).toBe(round + 1);
          await loseData();
          // Through both instances: refused as expired (the shopper asks again), not run.
          for (let twice = 0; twice < 2; twice++) {
            const response = await replay(approved.recorded);
            expect(response.status, await response.clone().text()).toBe(403);
            expect(await reasonOf(response)).toBe(
              'This approval has expired: ask for the change again.',
            );
          }
          expect(patches()).toBe(round + 1);
        }
        expect(new Set(servedBy(app, '/api/chat').slice(-2))).toEqual(new Set([0, 1]));
      } finally {
        await redis.stop();
      }
    });

    it('the instances get their secrets over IPC, never in their environment (/proc/<pid>/environ)', async () => {
      if (!existsSync('/proc/self/environ')) return;
      const markers = {
        CATALOG_API_KEY: 'launcher_env_catalog_key_5k2m',
        OPENAI_API_KEY: 'launcher_env_openai_key_8w3q',
        WEBCHAT_SESSION_SECRET: 'launcher_env_session_secret_1z7v',
      };
      const saved = Object.keys(markers).map((name) => [name, process.env[name]] as const);
      Object.assign(process.env, markers);
      const secrets = { approvalSecret: 'approval_secret_9d4f', sessionSecret: 'session_2h6j' };
      const redis = await spawnRedisServer();
      const emulator = await startEmulator({ keys: { valid: SECRET_KEY } });
      try {
        const running = await startInstances({
          count: 2,
          catalog: { apiKey: SECRET_KEY, baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
          pageDir: PAGE_DIR,
          redisUrl: redis.url,
          ...secrets,
          entry: await instanceEntry(),
          nodeArgs: INSTANCE_NODE_ARGS,
          onOutput: () => undefined,
        });
        try {
          // They started from it: both serve through the proxy.
          for (let index = 0; index < 2; index++) {
            expect((await fetch(running.url)).status).toBe(200);
          }
          for (const { pid } of running.instances) {
            const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
            for (const secret of [SECRET_KEY, redis.url, ...Object.values(secrets)]) {
              expect(environ.includes(secret), secret).toBe(false);
            }
            for (const [name, value] of Object.entries(markers)) {
              expect(environ.includes(value), name).toBe(false);
            }
            expect(environ).not.toContain('WEBCHAT_INSTANCE');
          }
        } finally {
          await running.close();
        }
      } finally {
        for (const [name, value] of saved) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
        await emulator.close();
        await redis.stop();
      }
    });

    it('with Redis out of reach, an approval is refused (503) and nothing is applied', async () => {
      const redis = await spawnRedisServer();
      try {
        const app = await start({}, redis.url);
        const chat = new ChatDriver(new Shopper(app.chat.url));
        await askToSave(chat);
        await redis.stop();
        const response = await chat.answer(true);
        expect(response.status).toBe(503);
        expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(0);
      } finally {
        await redis.stop();
      }
    });

    it('without redis-server and without REDIS_URL, the launcher says what to do', async () => {
      const error = await spawnRedisServer({ command: '/nonexistent/redis-server' }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(RedisServerUnavailableError);
      expect((error as Error).message).toMatch(/Install Redis, or set REDIS_URL/);
    });
  },
);

describe.skipIf(noRedis || noChromium)(
  `two instances in Chromium${noRedis || noChromium ? ` (skipped: ${noRedis ?? noChromium})` : ''}`,
  () => {
    let browser: Browser;
    const opened: OpenedPage[] = [];
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });
    afterEach(async () => {
      for (const page of opened.splice(0)) {
        await expectNothingLeaked(page, SECRET_KEY);
        await page.context.close();
      }
    });

    async function send(chat: Locator, text: string): Promise<void> {
      await chat.getByLabel('Message').fill(text);
      await chat.getByLabel('Message').press('Enter');
    }

    async function settled(chat: Locator): Promise<void> {
      await expect.poll(() => chat.getAttribute('data-status'), WAIT).toBe('ready');
    }

    it('flow 1: search, Approve once, next turn; the chat’s requests go to both instances', async () => {
      const app = await start({ collections: [{ id: 'col_summer', name: 'Summer' }] });
      const page = await openPage(browser, `${app.chat.url}#agent`);
      opened.push(page);
      const chat = page.page.locator('section[aria-label="Find products"]');
      await send(chat, 'trail running shoes');
      await expect.poll(() => chat.locator('.product-card').count(), WAIT).toBeGreaterThan(0);
      await settled(chat);
      await send(chat, 'add the first two to my Summer collection');
      await chat.getByRole('button', { name: 'Approve' }).waitFor(WAIT);
      await settled(chat);
      await chat.getByRole('button', { name: 'Approve' }).click();
      await chat.locator('.approval.done').waitFor(WAIT);
      await settled(chat);
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
      // The next turn replays the approved history, through whichever instance: no rerun.
      await send(chat, 'waterproof hiking jacket');
      await expect
        .poll(
          async () => (await chat.locator('.message.assistant .text').last().textContent())?.trim(),
          WAIT,
        )
        .toMatch(/^Here are \d+ matches for “waterproof hiking jacket”/);
      await settled(chat);
      expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
      const chats = servedBy(app, '/api/chat');
      expect(chats.length).toBeGreaterThanOrEqual(4);
      expect(new Set(chats)).toEqual(new Set([0, 1]));
    });

    it('flow 2: the service chat mints through the proxy and keeps one token', async () => {
      const app = await start();
      const page = await openPage(browser, `${app.chat.url}#service`);
      opened.push(page);
      const chat = page.page.locator('section[aria-label="Ask the store"]');
      for (let index = 1; index <= 3; index++) {
        await send(chat, `trail shoes, try ${index}`);
        await expect.poll(() => chat.locator('.message.assistant').count(), WAIT).toBe(index);
        await expect.poll(() => chat.getAttribute('data-busy'), WAIT).toBe('false');
      }
      const [conversation] = [...app.emulator.state.conversations.values()];
      expect(conversation?.turns).toHaveLength(3);
      expect(conversation?.tokens).toHaveLength(1);
      expect(servedBy(app, '/api/conversation-token')).toHaveLength(1);
    });
  },
);

// `pnpm chat --instances 2` itself: the launcher starts redis-server, the instances and
// the proxy, prints the one URL, and leaves nothing running after Ctrl+C.
const require = createRequire(import.meta.url);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * Resolves with everything printed up to the line that matches; on exit or after 90 s,
 * rejects with stdout and stderr, so a slow or failed start says why.
 */
function printed(running: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(
        new Error(`${why} before printing ${pattern}:\n${out}\nstderr:\n${err.slice(-4_000)}`),
      );
    };
    const timer = setTimeout(() => fail('90 s passed'), 90_000);
    running.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    running.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!pattern.test(out)) return;
      clearTimeout(timer);
      resolve(out);
    });
    running.once('exit', (code) => fail(`exited with ${code}`));
  });
}

function answersOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Ctrl+C as a terminal sends it: SIGINT to every process of the group (the child was started
 * in a group of its own); resolves once the child has exited.
 */
async function interrupt(running: ChildProcess): Promise<void> {
  if (running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  process.kill(-(running.pid as number), 'SIGINT');
  await exited;
}

describe.skipIf(noRedis)('pnpm chat with shared state', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child) await interrupt(child);
  });

  it('starts redis-server, two instances and the proxy on one URL; Ctrl+C stops all of them', async () => {
    child = spawn(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        '--conditions=@catalogkit/source',
        'src/main.ts',
        '--instances',
        '2',
      ],
      { cwd: PACKAGE_DIR, env: { PATH: process.env.PATH, PORT: '0' }, detached: true },
    );
    const out = await printed(child, /Ctrl\+C/);
    const url = out.match(/open: {4}(\S+)/)?.[1] ?? '';
    const redisPort = Number(
      out.match(/redis-server started at redis:\/\/127\.0\.0\.1:(\d+)/)?.[1],
    );
    const instances = [
      ...(out.match(/instances: 2 processes, .*\((\S+), (\S+)\)/)?.slice(1) ?? []),
    ];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(instances).toHaveLength(2);
    expect(await answersOn(redisPort)).toBe(true);

    // Through the one URL, a conversation created by one instance gets a token from the other.
    const owner = new Shopper(url);
    const created = await owner.post('/api/conversation-token', {});
    expect(created.status).toBe(200);
    const { conversationId } = (await created.json()) as { conversationId: string };
    const minted = await owner.post('/api/conversation-token', { conversationId });
    expect(minted.status).toBe(200);
    await minted.arrayBuffer();
    // The instances accept the proxy's origin only, not their own.
    const direct = new Shopper(instances[0] as string);
    expect((await direct.post('/api/conversation-token', {})).status).toBe(403);

    await interrupt(child);
    await expect.poll(() => answersOn(redisPort), WAIT).toBe(false);
    for (const instance of instances) {
      await expect.poll(() => answersOn(Number(new URL(instance).port)), WAIT).toBe(false);
    }
    await expect.poll(() => answersOn(Number(new URL(url).port)), WAIT).toBe(false);
  });

  it('one process with REDIS_URL keeps the shared state in that Redis', async () => {
    const redis = await spawnRedisServer();
    const client = new Redis(redis.url);
    try {
      child = spawn(
        process.execPath,
        [require.resolve('tsx/cli'), '--conditions=@catalogkit/source', 'src/main.ts'],
        {
          cwd: PACKAGE_DIR,
          env: { PATH: process.env.PATH, PORT: '0', REDIS_URL: redis.url },
          detached: true,
        },
      );
      const out = await printed(child, /Ctrl\+C/);
      expect(out).toContain(`shared:  ${redis.url}`);
      const url = out.match(/open: {4}(\S+)/)?.[1] ?? '';
      const created = await new Shopper(url).post('/api/conversation-token', {});
      expect(created.status).toBe(200);
      const { conversationId } = (await created.json()) as { conversationId: string };
      const keys = await client.keys('*webchat:*');
      expect(
        keys.filter((key) => key.endsWith(`webchat:conversation:${conversationId}`)),
      ).toHaveLength(1);
      expect(keys.some((key) => key.includes('webchat:rate:token:address:'))).toBe(true);
    } finally {
      client.disconnect();
      if (child) await interrupt(child);
      await redis.stop();
    }
  });
});
