import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Shopper } from './support/api.js';
import { SECRET_KEY, startTestApp, type TestApp } from './support/app.js';

// The server's two routes over HTTP, without a browser: what a page (or anyone) can ask.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** One shopper (one session cookie) for the tests of this file. */
function post(path: string, body: unknown): Promise<Response> {
  shopper ??= new Shopper(app.chat.url);
  return shopper.post(path, body);
}
let shopper: Shopper | undefined;

describe('POST /api/conversation-token', () => {
  it('creates the conversation on the first call, then mints for it; never answers the key', async () => {
    const first = await post('/api/conversation-token', {});
    expect(first.status).toBe(200);
    const created = (await first.json()) as { conversationId: string; minted: { token: string } };
    expect(created).toMatchObject({
      conversationId: expect.stringMatching(/^conv_/),
      serviceUrl: app.emulator.baseUrl,
      minted: { token: expect.any(String), expiresAt: expect.any(String) },
    });
    const again = await post('/api/conversation-token', { conversationId: created.conversationId });
    const minted = (await again.json()) as { conversationId: string; minted: { token: string } };
    expect(minted.conversationId).toBe(created.conversationId);
    expect(minted.minted.token).not.toBe(created.minted.token);
    expect(app.emulator.state.conversations.size).toBe(1);
    expect(JSON.stringify([created, minted])).not.toContain(SECRET_KEY);
  });

  it('mints only for conversations it created', async () => {
    const before = app.emulator.stats.snapshot();
    const response = await post('/api/conversation-token', { conversationId: 'conv_someone_else' });
    expect(response.status).toBe(404);
    // Refused before the service is asked anything.
    expect(app.emulator.stats.snapshot()).toEqual(before);
  });
});

describe('the conversations the server remembers', () => {
  it('are bounded: past maxConversations the oldest is forgotten, and refused like any other', async () => {
    const small = await startTestApp({}, { maxConversations: 2 });
    try {
      const owner = new Shopper(small.chat.url);
      const create = async () => {
        const response = await owner.post('/api/conversation-token', {});
        return ((await response.json()) as { conversationId: string }).conversationId;
      };
      const [first, second, third] = [await create(), await create(), await create()];
      const mintFor = (conversationId: string) =>
        owner
          .post('/api/conversation-token', { conversationId })
          .then((response) => response.status);
      expect(await mintFor(first)).toBe(404);
      expect(await mintFor(second)).toBe(200);
      expect(await mintFor(third)).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('POST /api/chat', () => {
  it('refuses a body without messages, saying why', async () => {
    const response = await post('/api/chat', { id: 'chat_1' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'messages: an array of 1 to 200 messages.',
    });
  });

  it('refuses a body past its size limit with 413, unread', async () => {
    const response = await post('/api/chat', { id: 'chat_1', pad: 'x'.repeat(1024 * 1024) });
    expect(response.status).toBe(413);
  });
});

describe('the page', () => {
  it('serves the built page for any other path', async () => {
    const response = await fetch(new URL('/some/deep/link', app.chat.url));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root"></div>');
  });
});
