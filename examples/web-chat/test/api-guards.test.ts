import { afterEach, describe, expect, it } from 'vitest';
import { Shopper } from './support/api.js';
import { startTestApp, type TestApp } from './support/app.js';
import { reasonOf } from './support/chat.js';

// The API's guards over real HTTP: sessions own conversations, rate limits answer 429 with
// Retry-After, and cross-site requests are refused before anything runs.

const CONVERSATIONS_ROUTE = 'POST /v1/conversations';
const MINT_ROUTE = 'POST /v1/conversations/:conversation_id/tokens';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function start(chatOptions: Parameters<typeof startTestApp>[1] = {}): Promise<TestApp> {
  const app = await startTestApp({}, chatOptions);
  apps.push(app);
  return app;
}

/** Creates a conversation as `shopper`; resolves with its id. */
async function createConversation(shopper: Shopper): Promise<string> {
  const response = await shopper.post('/api/conversation-token', {});
  expect(response.status, await reasonOf(response)).toBe(200);
  return ((await response.json()) as { conversationId: string }).conversationId;
}

describe('the session cookie', () => {
  it('is issued HttpOnly and SameSite=Strict; a forged one is replaced, not trusted', async () => {
    const app = await start();
    const shopper = new Shopper(app.chat.url);
    const response = await shopper.post('/api/conversation-token', {});
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^webchat_session=[\w-]+\.[\w-]+; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // The cookie is kept: the next call sets none.
    expect((await shopper.post('/api/conversation-token', {})).headers.get('set-cookie')).toBe(
      null,
    );
    const forger = new Shopper(app.chat.url);
    forger.cookie = `${shopper.cookie.split('.')[0]}.forged`;
    const forged = await forger.post('/api/conversation-token', {});
    expect(forged.headers.get('set-cookie')).toMatch(/^webchat_session=/);
  });
});

describe('conversations belong to the session that created them', () => {
  it('another session cannot mint tokens for one (404, the service is not asked)', async () => {
    const app = await start();
    const owner = new Shopper(app.chat.url);
    const id = await createConversation(owner);
    const mintsBefore = app.emulator.stats.count(MINT_ROUTE);
    const thief = new Shopper(app.chat.url);
    const stolen = await thief.post('/api/conversation-token', { conversationId: id });
    expect(stolen.status).toBe(404);
    expect(JSON.stringify(await stolen.json())).not.toContain('token"');
    expect(app.emulator.stats.count(MINT_ROUTE)).toBe(mintsBefore);
    // A session-less caller gets a fresh session, which owns nothing either.
    const anonymous = await fetch(new URL('/api/conversation-token', app.chat.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: owner.origin },
      body: JSON.stringify({ conversationId: id }),
    });
    expect(anonymous.status).toBe(404);
    expect((await owner.post('/api/conversation-token', { conversationId: id })).status).toBe(200);
  });
});

describe('conversationId', () => {
  it('a lone surrogate or a control character is a 400 naming the field; the service is not asked', async () => {
    const app = await start();
    const shopper = new Shopper(app.chat.url);
    const before = app.emulator.stats.snapshot();
    // As JSON carries them: a lone surrogate no store can keep exactly (a Redis store
    // refuses it, which was a 500), a pair cut in half, NUL and CRLF.
    for (const id of ['\\ud800', 'conv_\\udfff', '\\ud83d', 'conv_\\u0000', 'conv_1\\r\\nX']) {
      const response = await shopper.post('/api/conversation-token', `{"conversationId":"${id}"}`);
      expect(response.status, id).toBe(400);
      expect(await reasonOf(response)).toMatch(/^conversationId: /);
    }
    expect(app.emulator.stats.snapshot()).toEqual(before);
    // A well-formed pair is text like any other: unknown, not malformed.
    const emoji = await shopper.post('/api/conversation-token', {
      conversationId: 'conv_\u{1F600}',
    });
    expect(emoji.status).toBe(404);
  });
});

describe('rate limits', () => {
  it('one session creating conversations gets 429 with Retry-After; the service saw only the allowed ones', async () => {
    const app = await start();
    const shopper = new Shopper(app.chat.url);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 40; attempt++) {
      const response = await shopper.post('/api/conversation-token', {});
      statuses.push(response.status);
      if (response.status === 429) refused ??= response;
      else await response.arrayBuffer();
    }
    // The default allows a burst of 5 new conversations per session.
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused?.json()).toEqual({ error: expect.stringMatching(/^Too many requests/) });
    expect(app.emulator.stats.count(CONVERSATIONS_ROUTE)).toBe(5);
  });

  it('new sessions do not escape the per-address limit: 1,000 attempts create at most the burst', async () => {
    const app = await start();
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, async () => {
        // A fresh jar each time: a new session per request, as a script would do.
        const response = await new Shopper(app.chat.url).post('/api/conversation-token', {});
        await response.arrayBuffer();
        return response.status;
      }),
    );
    const created = statuses.filter((status) => status === 200).length;
    // The burst (20), plus what the bucket refills (10 a minute) while a busy machine sends them.
    const refilled = Math.floor(((performance.now() - started) / 60_000) * 10);
    expect(created).toBeLessThanOrEqual(20 + refilled);
    expect(statuses.filter((status) => status === 429).length).toBe(1000 - created);
    expect(app.emulator.stats.count(CONVERSATIONS_ROUTE)).toBe(created);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('limits /api/chat per session too', async () => {
    const app = await start({
      rateLimits: {
        chat: { session: { burst: 2, perMinute: 1 }, address: { burst: 100, perMinute: 100 } },
      },
    });
    const shopper = new Shopper(app.chat.url);
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await shopper.post('/api/chat', { id: 'c', messages: [] });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([400, 400, 429, 429]);
  });
});

describe('cross-site requests', () => {
  const evil = 'https://evil.example';

  it.each([
    [
      'a text/plain form POST from another site',
      { 'content-type': 'text/plain', origin: evil, 'sec-fetch-site': 'cross-site' },
    ],
    ['a JSON POST with a foreign Origin', { origin: evil, 'sec-fetch-site': 'cross-site' }],
    ['a foreign Origin without Sec-Fetch-Site', { origin: evil, 'sec-fetch-site': '' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null', 'sec-fetch-site': '' }],
    [
      'a same-site (not same-origin) page',
      { origin: 'http://sub.127.0.0.1', 'sec-fetch-site': 'same-site' },
    ],
    ['no Origin and no Sec-Fetch-Site', { origin: '', 'sec-fetch-site': '' }],
  ])('%s gets 403 and runs nothing', async (_name, headers) => {
    const app = await start();
    const before = app.emulator.stats.snapshot();
    for (const path of ['/api/chat', '/api/conversation-token']) {
      const response = await fetch(new URL(path, app.chat.url), {
        method: 'POST',
        headers: Object.fromEntries(
          Object.entries({ 'content-type': 'application/json', ...headers }).filter(
            ([, value]) => value !== '',
          ),
        ),
        body:
          path === '/api/chat'
            ? JSON.stringify({
                id: 'c',
                messages: [
                  { id: 'm', role: 'user', parts: [{ type: 'text', text: 'trail running shoes' }] },
                ],
              })
            : '{}',
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBe(null);
      expect(await reasonOf(response)).toMatch(/refused/);
    }
    expect(app.emulator.stats.snapshot()).toEqual(before);
  });

  it('a same-origin text/plain POST is refused too (415): only JSON is read', async () => {
    const app = await start();
    const before = app.emulator.stats.snapshot();
    const shopper = new Shopper(app.chat.url);
    const response = await shopper.post('/api/conversation-token', '{}', {
      'content-type': 'text/plain',
    });
    expect(response.status).toBe(415);
    expect(app.emulator.stats.snapshot()).toEqual(before);
  });
});
