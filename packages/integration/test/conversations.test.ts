import { AuthenticationError, CatalogClient, RequestValidationError } from '@catalogkit/core';
import {
  ChatSession,
  createHttpTokenMinter,
  createTurnSender,
  MemoryCatalogStore,
} from '@catalogkit/core/conversations';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const CREATE = 'POST /v1/conversations';
const MINT = 'POST /v1/conversations/:conversation_id/tokens';
const TURN = 'POST /v1/conversations/:conversation_id/turns';

/** The emulator's clock; tests move it to simulate hours of chat in milliseconds. */
let serverClockMs = Date.UTC(2025, 5, 1, 9);
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ now: () => new Date(serverClockMs) });
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.stats.reset();
});

/**
 * A chat session as an app would wire it: the server client (API key) creates the
 * conversation and mints; turns go out with the token only. `clientClock` is the app's
 * clock, which may differ from the emulator's.
 */
function chatSession(clientClock: () => number, sessionId = `chat_${Math.random()}`) {
  const server = new CatalogClient({ apiKey: emulator.keys.valid, baseUrl: emulator.baseUrl });
  const browser = new CatalogClient({ baseUrl: emulator.baseUrl });
  return new ChatSession({
    sessionId,
    store: new MemoryCatalogStore({ now: clientClock }),
    createConversation: ({ signal }) => server.conversations.create({ channel: 'web' }, { signal }),
    mintToken: ({ conversationId, signal }) =>
      createHttpTokenMinter({ client: server, conversationId })({ signal }),
    sendTurn: createTurnSender({ client: browser }),
    tokenOptions: { now: clientClock, refreshMarginMs: MINUTE },
  });
}

/** Sends one shopper message every `intervalMs` of emulator time for `durationMs`. */
async function chatFor(chat: ChatSession, durationMs: number, intervalMs: number): Promise<number> {
  let messages = 0;
  for (let elapsed = 0; elapsed < durationMs; elapsed += intervalMs) {
    const turn = await chat.send(`message ${messages}`);
    expect(turn.reply.role).toBe('assistant');
    messages += 1;
    serverClockMs += intervalMs;
  }
  return messages;
}

describe('conversation tokens against the emulator', () => {
  it('creates the conversation once, mints once, and sends one turn per message', async () => {
    const chat = chatSession(() => serverClockMs);
    const turn = await chat.send('running shoes under $100');
    await chat.send('in blue');
    expect(typeof turn.turn_id).toBe('string');
    expect(turn.reply.content.length).toBeGreaterThan(0);
    expect(emulator.stats.count(CREATE)).toBe(1);
    expect(emulator.stats.count(MINT)).toBe(1);
    expect(emulator.stats.count(TURN)).toBe(2);
  });

  it('an eight-hour chat with 30-minute tokens mints once per token lifetime, never with an expired token', async () => {
    const chat = chatSession(() => serverClockMs);
    const messages = await chatFor(chat, 8 * HOUR, MINUTE);
    // Every message was one turn: no turn was refused (401) and repeated.
    expect(emulator.stats.count(TURN)).toBe(messages);
    expect(emulator.stats.count(MINT)).toBe(Math.ceil((8 * HOUR) / (30 * MINUTE - MINUTE)));
    expect(emulator.stats.count(CREATE)).toBe(1);
  });

  it.each([
    { label: '10 minutes behind', offsetMs: -10 * MINUTE },
    { label: '10 minutes ahead', offsetMs: 10 * MINUTE },
  ])('a client clock $label still refreshes in time (Date header)', async ({ offsetMs }) => {
    const chat = chatSession(() => serverClockMs + offsetMs);
    const messages = await chatFor(chat, 2 * HOUR, 20_000);
    expect(emulator.stats.count(TURN)).toBe(messages);
    expect(emulator.stats.count(MINT)).toBe(Math.ceil((2 * HOUR) / (30 * MINUTE - MINUTE)));
  });

  it('an expired token gets a 401, then exactly one refresh and one retry', async () => {
    // The app's clock stands still (a suspended laptop), so only the server sees expiry.
    const frozen = serverClockMs;
    const chat = chatSession(() => frozen);
    await chat.send('hello');
    serverClockMs += 31 * MINUTE;
    const turn = await chat.send('still there?');
    expect(turn.reply.role).toBe('assistant');
    expect(emulator.stats.count(MINT)).toBe(2);
    expect(emulator.stats.count(TURN)).toBe(3);
  });

  it('a turn refused twice surfaces the 401 after exactly one refresh and one retry', async () => {
    const chat = chatSession(() => serverClockMs);
    await chat.conversationId();
    emulator.faults.set({ routes: [TURN], status: 401 });
    try {
      const error = await chat.send('hi').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
    } finally {
      emulator.faults.clear();
    }
    expect(emulator.stats.count(TURN)).toBe(2);
    expect(emulator.stats.count(MINT)).toBe(2);
  });

  it('an empty or whitespace message is refused naming `message`; nothing reaches the service', async () => {
    const chat = chatSession(() => serverClockMs);
    for (const message of ['', '   ', '\n\t']) {
      const error = await chat.send(message).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([
        'message',
      ]);
    }
    expect(emulator.stats.snapshot()).toEqual({});
  });

  it('sessions sharing a store reuse the conversation; another session gets its own', async () => {
    const store = new MemoryCatalogStore();
    const server = new CatalogClient({ apiKey: emulator.keys.valid, baseUrl: emulator.baseUrl });
    const make = (sessionId: string) =>
      new ChatSession({
        sessionId,
        store,
        createConversation: () => server.conversations.create(),
        mintToken: ({ conversationId, signal }) =>
          createHttpTokenMinter({ client: server, conversationId })({ signal }),
        sendTurn: createTurnSender({ client: server }),
      });
    const [a1, a2, b] = [make('a'), make('a'), make('b')];
    await Promise.all([a1.send('one'), a2.send('two'), b.send('three')]);
    expect(await a1.conversationId()).toBe(await a2.conversationId());
    expect(await b.conversationId()).not.toBe(await a1.conversationId());
    expect(emulator.stats.count(CREATE)).toBe(2);
    expect(emulator.stats.count(MINT)).toBe(2);
  });
});
