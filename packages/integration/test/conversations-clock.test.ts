import { AuthenticationError, CatalogClient } from '@catalogkit/core';
import {
  ConversationTokenManager,
  createHttpTokenMinter,
  createTurnSender,
} from '@catalogkit/core/conversations';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterEach, describe, expect, it, vi } from 'vitest';

const MINUTE = 60_000;

let emulator: RunningEmulator;
afterEach(() => emulator.close());

/**
 * Real fetch, with the `Date` header removed from every answer: what a browser shows a
 * script when the server does not expose it cross-origin (Access-Control-Expose-Headers).
 */
const fetchWithoutDate: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const headers = new Headers(response.headers);
  headers.delete('date');
  return new Response(response.body, { status: response.status, headers });
};

/**
 * A chat of `durationMs` on a manual local clock, one turn every `stepMs`, against the
 * emulator whose clock runs `skewMs` ahead. Counts turns the emulator refused as expired.
 */
async function chat(options: { skewMs: number; durationMs: number; stepMs: number; ttl?: number }) {
  let localMs = Date.UTC(2026, 0, 1, 9);
  emulator = await startEmulator({ now: () => new Date(localMs + options.skewMs) });
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    fetch: fetchWithoutDate,
  });
  const conversation = await client.conversations.create({});
  const conversationId = String(conversation.conversation_id);
  const manager = new ConversationTokenManager({
    mint: createHttpTokenMinter({ client, conversationId, ttlSeconds: options.ttl }),
    now: () => localMs,
    refreshMarginMs: MINUTE,
  });
  const sendTurn = createTurnSender({ client });
  let expired = 0;
  let turns = 0;
  for (let elapsed = 0; elapsed < options.durationMs; elapsed += options.stepMs) {
    const token = await manager.getToken();
    await sendTurn({ conversationId, token, message: `turn ${turns}` }).catch((error) => {
      if (!(error instanceof AuthenticationError)) throw error;
      expired += 1;
    });
    turns += 1;
    localMs += options.stepMs;
  }
  manager.close();
  return { expired, turns, mints: emulator.state.tokens.size };
}

describe('conversation tokens with a wrong local clock and no Date header', {
  timeout: 60_000,
}, () => {
  it('10 minutes behind: no expired token in two hours (the default 30-minute life)', async () => {
    const { expired, turns } = await chat({
      skewMs: 10 * MINUTE,
      durationMs: 120 * MINUTE,
      stepMs: 60_000,
    });
    expect(turns).toBe(120);
    expect(expired).toBe(0);
  });

  it('10 minutes behind with a 5-minute token: no expired token', async () => {
    const { expired } = await chat({
      skewMs: 10 * MINUTE,
      durationMs: 60 * MINUTE,
      stepMs: 20_000,
      ttl: 300,
    });
    expect(expired).toBe(0);
  });

  it('10 minutes ahead: no expired token either', async () => {
    const { expired } = await chat({
      skewMs: -10 * MINUTE,
      durationMs: 90 * MINUTE,
      stepMs: 30_000,
    });
    expect(expired).toBe(0);
  });

  it('90 minutes ahead: every mint is used (none refused as "not in the future"), one per token life', async () => {
    const { expired, turns, mints } = await chat({
      skewMs: -90 * MINUTE,
      durationMs: 120 * MINUTE,
      stepMs: 60_000,
    });
    expect(turns).toBe(120);
    expect(expired).toBe(0);
    // 30-minute tokens refreshed a minute early: one per 29 minutes, as with a right clock.
    expect(mints).toBe(Math.ceil(120 / 29));
  });

  it('a day ahead with a 5-minute token: no refused mint, no expired token', async () => {
    const { expired, mints } = await chat({
      skewMs: -24 * 60 * MINUTE,
      durationMs: 30 * MINUTE,
      stepMs: 20_000,
      ttl: 300,
    });
    expect(expired).toBe(0);
    // 5-minute tokens refreshed a minute early: one per 4 minutes.
    expect(mints).toBe(Math.ceil(30 / 4));
  });
});

describe('the local wall clock stepping during a mint (Date faked, timers real)', () => {
  afterEach(() => vi.useRealTimers());

  it.each([true, false])(
    '+1 h while the token answer is on its way (Date header %s): that token is used, one mint',
    async (withDate) => {
      // The service keeps its own clock: only this process's Date steps.
      const serviceEpoch = Date.now() - performance.now();
      emulator = await startEmulator({ now: () => new Date(serviceEpoch + performance.now()) });
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
      const stepping: typeof fetch = async (input, init) => {
        const response = await (withDate ? fetch : fetchWithoutDate)(input, init);
        if (String(input).endsWith('/tokens')) vi.setSystemTime(Date.now() + 60 * MINUTE);
        return response;
      };
      const client = new CatalogClient({
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        fetch: stepping,
      });
      const conversationId = String((await client.conversations.create({})).conversation_id);
      const manager = new ConversationTokenManager({
        mint: createHttpTokenMinter({ client, conversationId }),
      });
      const sendTurn = createTurnSender({ client });
      const token = await manager.getToken();
      await sendTurn({ conversationId, token, message: 'hello' });
      expect(await manager.getToken()).toBe(token);
      expect(emulator.state.tokens.size).toBe(1);
      manager.close();
    },
  );
});
