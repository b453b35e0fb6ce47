import type { UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { answerApproval, approvalIdOf, Shopper } from './support/api.js';
import { PATCH_ROUTE, startTestApp, type TestApp } from './support/app.js';
import { ChatDriver, reasonOf } from './support/chat.js';

// Approvals are single use and expire: real histories recorded over HTTP from the real
// server (scripted model, real tools, the emulator), then replayed the way an attacker
// holding them would.

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function start(chatOptions: Parameters<typeof startTestApp>[1] = {}): Promise<TestApp> {
  const app = await startTestApp({}, chatOptions);
  apps.push(app);
  return app;
}

function summerClauses(app: TestApp) {
  return structuredClone(app.emulator.state.collections.get('col_summer')?.clauses ?? []);
}

/** A search, then "add" asked: the chat waits for the shopper's Approve. */
async function askToSave(chat: ChatDriver, search: string): Promise<UIMessage> {
  await chat.say(search);
  const asking = await chat.say('add the first two to my Summer collection');
  expect(approvalIdOf(asking)).toEqual(expect.any(String));
  return asking;
}

describe('a recorded approval, replayed', () => {
  it('A approved, then B on the same collection: re-posting A’s signed history applies nothing (409)', async () => {
    const app = await start();
    const shopper = new Shopper(app.chat.url);
    const chat = new ChatDriver(shopper);
    const patches = () => app.emulator.stats.count(PATCH_ROUTE);

    await askToSave(chat, 'trail running shoes');
    const a = await chat.answer(true);
    expect(a.status).toBe(200);
    expect(patches()).toBe(1);
    await askToSave(chat, 'waterproof hiking jacket');
    const b = await chat.answer(true);
    expect(b.status).toBe(200);
    expect(patches()).toBe(2);
    const afterB = summerClauses(app);
    // A and B differ, so the client's memory of the latest update would not stop A again.
    expect(afterB.at(-1)?.product_ids).not.toEqual(afterB.at(-2)?.product_ids);

    for (const recorded of [a.recorded, b.recorded, a.recorded]) {
      const replay = await shopper.post('/api/chat', recorded);
      expect(replay.status).toBe(409);
      expect(await reasonOf(replay)).toBe('This approval was already used.');
    }
    expect(patches()).toBe(2);
    expect(summerClauses(app)).toEqual(afterB);
  });

  it('a stale approval (past its expiry) is refused and runs nothing', async () => {
    let now = Date.now();
    const app = await start({ now: () => now, approvalTtlSeconds: 60 });
    const chat = new ChatDriver(new Shopper(app.chat.url));
    await askToSave(chat, 'trail running shoes');
    now += 61_000;
    const late = await chat.answer(true);
    expect(late.status).toBe(403);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(0);
  });

  it('an approval of one session or chat is refused in another; the shopper’s own still works once', async () => {
    const app = await start();
    const shopper = new Shopper(app.chat.url);
    const chat = new ChatDriver(shopper);
    await askToSave(chat, 'trail running shoes');
    const last = chat.messages.pop();
    if (!last) throw new Error('no message');
    // Approve without sending, to replay the answered history elsewhere first.
    chat.messages.push(answerApproval(last, true));
    const body = chat.body();

    const other = new Shopper(app.chat.url);
    const stolen = await other.post('/api/chat', body);
    expect(stolen.status).toBe(403);
    expect(await reasonOf(stolen)).toBe('This approval was not issued to this session and chat.');

    const otherChat = await shopper.post(
      '/api/chat',
      JSON.stringify({ ...JSON.parse(body), id: 'chat_other' }),
    );
    expect(otherChat.status).toBe(403);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(0);

    const own = await shopper.post('/api/chat', body);
    expect(own.status).toBe(200);
    await own.text();
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
    expect((await shopper.post('/api/chat', body)).status).toBe(409);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(1);
  });

  it('an approval whose id is not sealed by this server is refused', async () => {
    const app = await start();
    const shopper = new Shopper(app.chat.url);
    const chat = new ChatDriver(shopper);
    await askToSave(chat, 'trail running shoes');
    const sealed = approvalIdOf(chat.messages.at(-1) ?? { id: '', role: 'user', parts: [] }) ?? '';
    const original = Buffer.from(sealed.split('.')[1] ?? '', 'base64url').toString();
    const answered = answerApproval(chat.messages.pop() as never, true);
    const forged = JSON.parse(JSON.stringify(answered).replaceAll(sealed, original));
    chat.messages.push(forged);
    const response = await shopper.post('/api/chat', chat.body());
    expect(response.status).toBe(403);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(0);
  });

  it('the page only ever holds sealed approval ids (nonce, expiry, session and chat inside)', async () => {
    const app = await start();
    const asking = await askToSave(
      new ChatDriver(new Shopper(app.chat.url)),
      'trail running shoes',
    );
    expect(approvalIdOf(asking)).toMatch(/^wca1\.[\w-]+\.[\w-]{22}\.[0-9a-z]+\.[\w-]{43}$/);
  });

  it('Deny still runs nothing, and the chat goes on', async () => {
    const app = await start();
    const chat = new ChatDriver(new Shopper(app.chat.url));
    await askToSave(chat, 'trail running shoes');
    expect((await chat.answer(false)).status).toBe(200);
    expect(app.emulator.stats.count(PATCH_ROUTE)).toBe(0);
  });
});
