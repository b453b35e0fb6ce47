import { mkdirSync } from 'node:fs';
import type { StartEmulatorOptions } from '@catalogkit/emulator';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_KEY, startTestApp, type TestApp, TURNS_ROUTE } from './support/app.js';
import { chromiumMissing, launchChromium, type OpenedPage, openPage } from './support/browser.js';
import type { Capture } from './support/capture.js';
import { expectNothingLeaked } from './support/leaks.js';

// Flow 2 in headless Chromium: the page mints through the server's one endpoint and sends
// turns straight to the emulator (another origin) with the conversation token.

const missing = chromiumMissing();
const OUTPUT_DIR = new URL('../test-output/', import.meta.url);
const WAIT = { timeout: 60_000 };
/**
 * The token life the short-life test configures on the emulator. Refreshes come at half
 * life, so a turn has 5 s to reach the service with its token: ample on a busy machine.
 */
const SHORT_LIFE_S = 10;
/** How long the shopper stays idle: past a short token's expiry, so any poller would show. */
const IDLE_MS = (SHORT_LIFE_S + 1) * 1000;

let browser: Browser;
const apps: TestApp[] = [];
const opened: OpenedPage[] = [];

beforeAll(async () => {
  if (missing) return;
  mkdirSync(OUTPUT_DIR, { recursive: true });
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
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function start(options: StartEmulatorOptions = {}): Promise<TestApp> {
  const app = await startTestApp(options);
  apps.push(app);
  return app;
}

async function openServiceChat(app: TestApp): Promise<OpenedPage & { chat: Locator }> {
  const page = await openPage(browser, `${app.chat.url}#service`);
  opened.push(page);
  return { ...page, chat: page.page.locator('section[aria-label="Ask the store"]') };
}

async function type(chat: Locator, text: string): Promise<void> {
  await chat.getByLabel('Message').fill(text);
  await chat.getByLabel('Message').press('Enter');
}

/** Types a message, sends it, and waits for the n-th reply (or the error banner). */
async function say(chat: Locator, text: string, replies: number): Promise<void> {
  await type(chat, text);
  await expect
    .poll(async () => {
      if (await chat.getByRole('alert').isVisible()) return 'error';
      return chat.locator('.message.assistant').count();
    }, WAIT)
    .toBe(replies);
  await expect.poll(() => chat.getAttribute('data-busy'), WAIT).toBe('false');
}

const tokenRequests = (capture: Capture) => capture.requestsTo(/\/api\/conversation-token$/);
const turnRequests = (capture: Capture) => capture.requestsTo(/\/turns$/);
const bearer = (headers: Record<string, string>) =>
  headers.authorization?.replace(/^Bearer /, '') ?? '';

function onlyConversation(app: TestApp) {
  const conversations = [...app.emulator.state.conversations.values()];
  expect(conversations).toHaveLength(1);
  return conversations[0]!;
}

describe.skipIf(missing)(
  `flow 2, the service's conversations${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('20 shopper messages use one token, and nothing is sent while the shopper is idle', async () => {
      const app = await start();
      const { page, chat, capture } = await openServiceChat(app);
      // Opening the page sends nothing to the service: turns start with the shopper.
      expect(app.emulator.stats.snapshot()).toEqual({});

      for (let index = 1; index <= 20; index++) await say(chat, `trail shoes, try ${index}`, index);
      await capture.settle();
      const conversation = onlyConversation(app);
      expect(conversation.turns).toHaveLength(20);
      expect(conversation.tokens).toHaveLength(1);
      expect(tokenRequests(capture)).toHaveLength(1);
      const turns = turnRequests(capture);
      expect(turns).toHaveLength(20);
      expect(new Set(turns.map((turn) => bearer(turn.headers)))).toEqual(
        new Set([conversation.tokens[0]!.token]),
      );
      // The token goes to the service only, never with the key.
      expect(turns.every((turn) => !('x-api-key' in turn.headers))).toBe(true);

      const requestsBefore = capture.requests.length;
      const statsBefore = app.emulator.stats.snapshot();
      await page.waitForTimeout(IDLE_MS); // the idle shopper: a bounded wait, by design
      await capture.settle();
      expect(capture.requests.slice(requestsBefore)).toEqual([]);
      expect(app.emulator.stats.snapshot()).toEqual(statsBefore);
    });

    it('with a short token life, refreshes before expiry and never sends an expired token', async () => {
      const app = await start({ maxTokenTtlSeconds: SHORT_LIFE_S });
      const { page, chat, capture } = await openServiceChat(app);
      let sent = 0;
      // About a message a second until the chat has lived through three tokens.
      while ((firstConversation(app)?.tokens.length ?? 0) < 3) {
        sent++;
        await say(chat, `message ${sent}`, sent);
        expect(sent).toBeLessThan(40);
        await page.waitForTimeout(1_000); // the shopper's pace, not a synchronisation
      }
      await capture.settle();
      const conversation = onlyConversation(app);
      expect(conversation.turns).toHaveLength(sent);
      // No turn was refused: every one carried a live token.
      expect(app.emulator.stats.count(TURNS_ROUTE)).toBe(sent);
      for (const turn of turnRequests(capture)) {
        const token = app.emulator.state.tokens.get(bearer(turn.headers));
        expect(token?.expires_at.getTime()).toBeGreaterThan(turn.at);
      }
      // Each successor was minted while its predecessor still worked, and not per message.
      const [first, second, third] = conversation.tokens;
      const mintedAt = (token: typeof first) => token!.expires_at.getTime() - SHORT_LIFE_S * 1000;
      expect(mintedAt(second)).toBeLessThan(first!.expires_at.getTime());
      expect(mintedAt(third)).toBeLessThan(second!.expires_at.getTime());
      expect(tokenRequests(capture)).toHaveLength(3);
      expect(sent).toBeGreaterThan(3);

      // One more message uses the newest token; then idle past its expiry: nothing is
      // minted or sent until the shopper types (a refresh timer would mint here).
      sent++;
      await say(chat, `message ${sent}`, sent);
      await capture.settle();
      const requestsBefore = capture.requests.length;
      const tokensBefore = conversation.tokens.length;
      await page.waitForTimeout(IDLE_MS); // the idle shopper: a bounded wait, by design
      await capture.settle();
      expect(capture.requests.slice(requestsBefore)).toEqual([]);
      expect(conversation.tokens).toHaveLength(tokensBefore);
      // The token has expired meanwhile: the next message gets a fresh one first.
      await say(chat, 'back again', sent + 1);
      await capture.settle();
      expect(conversation.tokens).toHaveLength(tokensBefore + 1);
      const last = turnRequests(capture).at(-1);
      expect(bearer(last?.headers ?? {})).toBe(conversation.tokens.at(-1)?.token);
      expect(app.emulator.stats.count(TURNS_ROUTE)).toBe(sent + 1);
    });

    it('a turn answered 401 once gets one refresh and one retry; the chat keeps working', async () => {
      const app = await start();
      const { page, chat, capture } = await openServiceChat(app);
      await say(chat, 'trail running shoes', 1);
      app.emulator.faults.set({ routes: [TURNS_ROUTE], status: 401, times: 1 });
      await say(chat, 'waterproof jacket', 2);
      await say(chat, 'hiking boots', 3);
      await capture.settle();

      expect(await chat.getByRole('alert').count()).toBe(0);
      const statuses = capture.responsesFrom(/\/turns$/).map((response) => response.status);
      expect(statuses.sort()).toEqual([200, 200, 200, 401]);
      expect(tokenRequests(capture)).toHaveLength(2);
      const [, refused, retried, next] = turnRequests(capture).map((turn) => bearer(turn.headers));
      expect(retried).not.toBe(refused);
      expect(next).toBe(retried);
      expect(onlyConversation(app).turns).toHaveLength(3);
      await page.screenshot({ path: new URL('service-flow.png', OUTPUT_DIR).pathname });
    });

    it('says so when the service is down: no blank page, no unhandled rejection', async () => {
      // Down before the first message: our endpoint cannot create the conversation.
      const downFirst = await start();
      await downFirst.emulator.close();
      const early = await openServiceChat(downFirst);
      await type(early.chat, 'trail running shoes');
      await expect
        .poll(() => early.chat.getByRole('alert').textContent(), WAIT)
        .toBe('The shopping service is not answering right now. Try again in a moment.');
      expect(await early.page.locator('.app-header').isVisible()).toBe(true);

      // Down in the middle of a chat: the turn itself cannot reach the service.
      const downLater = await start();
      const later = await openServiceChat(downLater);
      await say(later.chat, 'trail running shoes', 1);
      await downLater.emulator.close();
      await type(later.chat, 'waterproof jacket');
      await expect
        .poll(() => later.chat.getByRole('alert').textContent(), WAIT)
        .toBe('The shopping service is not answering right now. Try again in a moment.');
      expect(await later.chat.locator('.message').count()).toBe(3);
      expect(await later.chat.getByLabel('Message').isEnabled()).toBe(true);
    });
  },
);

function firstConversation(app: TestApp) {
  return [...app.emulator.state.conversations.values()][0];
}
