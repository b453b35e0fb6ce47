import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ChatSession,
  ConversationTokenManager,
  createHttpTokenMinter,
  createTurnSender,
  MemoryCatalogStore,
} from '../src/conversations/index.js';
import { TokenMintError } from '../src/errors/index.js';
import { AuthenticationError, CatalogClient, RequestValidationError } from '../src/index.js';

const API_KEY = 'ck_test_conversations_secret_0001';
const MINUTE = 60_000;

interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A loopback stand-in for the conversation endpoints (core cannot depend on the emulator):
 * conversations, token minting with a `Date` header from its own clock, and turns that
 * answer 401 to unknown, revoked or expired tokens.
 */
function startConversationServer() {
  const tokens = new Map<string, number>();
  const requests: Recorded[] = [];
  const state = {
    serverOffsetMs: 0,
    tokenTtlMs: 30 * MINUTE,
    mintDelayMs: 0,
    refuseTurns: false,
    stallRefusals: false, // a 401's body is begun and never ended
    counter: 0,
  };
  const serverNow = () => Date.now() + state.serverOffsetMs;

  const reply = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/v1/conversations') {
      if (req.headers['x-api-key'] !== API_KEY)
        return reply(res, 401, { detail: 'Invalid API key.' });
      return reply(res, 201, { conversation_id: `conv_${++state.counter}`, extra: 'kept' });
    }
    const mint = path.match(/^\/v1\/conversations\/([^/]+)\/tokens$/);
    if (req.method === 'POST' && mint) {
      if (req.headers['x-api-key'] !== API_KEY)
        return reply(res, 401, { detail: 'Invalid API key.' });
      await new Promise((resolve) => setTimeout(resolve, state.mintDelayMs));
      const token = `ctok_${++state.counter}`;
      const expiresAt = serverNow() + state.tokenTtlMs;
      tokens.set(token, expiresAt);
      const date = new Date(serverNow()).toUTCString();
      return reply(
        res,
        201,
        { token, token_id: `tok_${state.counter}`, expires_at: new Date(expiresAt).toISOString() },
        { date },
      );
    }
    const turn = path.match(/^\/v1\/conversations\/([^/]+)\/turns$/);
    if (req.method === 'POST' && turn) {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const expiresAt = tokens.get(token);
      if (state.refuseTurns || expiresAt === undefined || serverNow() >= expiresAt) {
        if (state.stallRefusals) return res.writeHead(401).write('{"detail":');
        return reply(res, 401, { detail: 'Invalid or expired conversation token.' });
      }
      const { message } = JSON.parse(body) as { message: string };
      return reply(res, 200, {
        turn_id: `turn_${++state.counter}`,
        reply: { role: 'assistant', content: `echo: ${message}` },
      });
    }
    return reply(res, 404, { detail: 'Not found.' });
  };

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      void handle(req, res, body);
    });
  });

  return {
    state,
    requests,
    count: (pattern: RegExp) => requests.filter((r) => pattern.test(r.path)).length,
    revokeAll: () => tokens.clear(),
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a stalled answer's, too
      }),
  };
}

const server = startConversationServer();
let baseUrl = '';
const MINTS = /\/tokens$/;
const TURNS = /\/turns$/;
const CREATES = /^\/v1\/conversations$/;

beforeAll(async () => {
  baseUrl = await server.listen();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  Object.assign(server.state, {
    serverOffsetMs: 0,
    tokenTtlMs: 30 * MINUTE,
    mintDelayMs: 0,
    refuseTurns: false,
    stallRefusals: false,
  });
  vi.useRealTimers();
});

const serverClient = () => new CatalogClient({ apiKey: API_KEY, baseUrl, maxRetries: 0 });
const browserClient = () => new CatalogClient({ baseUrl, maxRetries: 0 });

function httpManager(conversationId = 'conv_a', ttlSeconds?: number) {
  return new ConversationTokenManager({
    mint: createHttpTokenMinter({ client: serverClient(), conversationId, ttlSeconds }),
  });
}

describe('createHttpTokenMinter', () => {
  it('mints with the API key and returns the token, expires_at and the Date header', async () => {
    const minted = await createHttpTokenMinter({
      client: serverClient(),
      conversationId: 'conv/1',
      ttlSeconds: 600,
    })({ signal: new AbortController().signal });
    expect(minted.token).toMatch(/^ctok_/);
    expect(Date.parse(String(minted.expiresAt))).toBeGreaterThan(Date.now());
    expect(minted.serverDate).toMatch(/GMT$/);
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/conversations/conv%2F1/tokens');
    expect(request?.headers['x-api-key']).toBe(API_KEY);
    expect(JSON.parse(request?.body ?? '')).toEqual({ ttl_seconds: 600 });
  });

  it('refuses bad input naming the field, before sending anything', () => {
    const client = serverClient();
    expect(() => createHttpTokenMinter({ client, conversationId: 'c', ttlSeconds: 30 })).toThrow(
      /ttl_seconds: must be at least 60/,
    );
    expect(() => createHttpTokenMinter({ client, conversationId: '  ' })).toThrow(
      RequestValidationError,
    );
    expect(() => createHttpTokenMinter({ client, conversationId: '  ' })).toThrow(/conversationId/);
    expect(server.requests).toHaveLength(0);
  });

  it('a refused key surfaces as TokenMintError caused by AuthenticationError, without the key', async () => {
    const badKey = 'ck_test_wrong_key_123456789';
    const manager = new ConversationTokenManager({
      mint: createHttpTokenMinter({
        client: new CatalogClient({ apiKey: badKey, baseUrl, maxRetries: 0 }),
        conversationId: 'conv_a',
      }),
    });
    const error = await manager.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenMintError);
    expect((error as TokenMintError).cause).toBeInstanceOf(AuthenticationError);
    expect(
      JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack }),
    ).not.toContain(badKey);
  });

  it('maps the token life onto the local clock when the server clock is 10 minutes ahead', async () => {
    server.state.serverOffsetMs = 10 * MINUTE;
    const manager = httpManager();
    const { expiresAt } = await manager.getTokenInfo();
    const remaining = expiresAt.getTime() - Date.now();
    // 30 minutes of life, give or take the Date header's one-second resolution.
    expect(remaining).toBeGreaterThan(30 * MINUTE - 5_000);
    expect(remaining).toBeLessThanOrEqual(30 * MINUTE + 1_000);
  });
});

describe('createTurnSender', () => {
  it('sends the message with the bearer token and never the API key', async () => {
    const token = await httpManager().getToken();
    const sendTurn = createTurnSender({ client: serverClient() });
    const turn = await sendTurn({ conversationId: 'conv_a', token, message: '  red shoes ' });
    expect(turn.reply.content).toBe('echo:   red shoes ');
    const request = server.requests.find((r) => TURNS.test(r.path));
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(JSON.parse(request?.body ?? '')).toEqual({ message: '  red shoes ' });
  });

  it('refuses an empty or whitespace message naming `message`, sending nothing', async () => {
    const sendTurn = createTurnSender({ client: browserClient() });
    for (const message of ['', ' \n\t ']) {
      const error = await sendTurn({ conversationId: 'c', token: 't', message }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toBe('message');
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('withToken: a 401 forces exactly one refresh and one retry', () => {
  it('recovers from a revoked token with one mint and one repeated turn', async () => {
    const manager = httpManager();
    const sendTurn = createTurnSender({ client: browserClient() });
    const send = (message: string) =>
      manager.withToken((token) => sendTurn({ conversationId: 'conv_a', token, message }));
    await send('hello');
    server.revokeAll();
    const turn = await send('again');
    expect(turn.reply.content).toBe('echo: again');
    expect(server.count(MINTS)).toBe(2);
    expect(server.count(TURNS)).toBe(3);
  });

  it('a second 401 is thrown, not retried again', async () => {
    const manager = httpManager();
    const sendTurn = createTurnSender({ client: browserClient() });
    await manager.getToken();
    server.state.refuseTurns = true;
    const error = await manager
      .withToken((token) => sendTurn({ conversationId: 'conv_a', token, message: 'hi' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(server.count(TURNS)).toBe(2);
    expect(server.count(MINTS)).toBe(2);
  });

  it('works with a raw fetch Response (401 → refresh → retry)', async () => {
    const manager = httpManager();
    await manager.getToken();
    server.revokeAll();
    const response = await manager.withToken((token) =>
      fetch(`${baseUrl}/v1/conversations/conv_a/turns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hi' }),
      }),
    );
    expect(response.status).toBe(200);
    expect(server.count(MINTS)).toBe(2);
    expect(server.count(TURNS)).toBe(2);
  });

  it('a 401 whose body stalls, tee-logged by the app’s fetch, is not waited for (S1’s leftover)', async () => {
    // Cancelling a tee'd branch settles only when the other branch ends: awaited, the refused
    // answer's cancel held withToken (and the shopper's turn) for as long as the body stalled.
    const manager = httpManager();
    await manager.getToken();
    server.revokeAll();
    server.state.stallRefusals = true;
    const teeLogged = async (url: string, init: RequestInit) => {
      const answer = await fetch(url, init);
      const [callers, logged] = (answer.body as ReadableStream<Uint8Array>).tee();
      void new Response(logged).text().catch(() => undefined);
      return new Response(callers, answer);
    };
    const turn = manager.withToken((token) =>
      teeLogged(`${baseUrl}/v1/conversations/conv_a/turns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hi' }),
      }),
    );
    const late = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 2_000));
    const response = await Promise.race([turn, late]);
    server.state.stallRefusals = false;
    expect(response === 'held' ? response : response.status).toBe(200);
    expect(server.count(MINTS)).toBe(2);
  });

  it('concurrent turns refused with the same token share one refresh', async () => {
    const manager = httpManager();
    const sendTurn = createTurnSender({ client: browserClient() });
    await manager.getToken();
    server.revokeAll();
    server.state.mintDelayMs = 50;
    const turns = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        manager.withToken((token) =>
          sendTurn({ conversationId: 'conv_a', token, message: `m${i}` }),
        ),
      ),
    );
    expect(turns).toHaveLength(5);
    expect(server.count(MINTS)).toBe(2);
    expect(server.count(TURNS)).toBe(10);
  });
});

describe('ChatSession', () => {
  function session(store = new MemoryCatalogStore(), sessionId = 'chat_1') {
    const client = serverClient();
    return new ChatSession({
      sessionId,
      store,
      createConversation: ({ signal }) => client.conversations.create({}, { signal }),
      mintToken: ({ conversationId, signal }) =>
        createHttpTokenMinter({ client, conversationId })({ signal }),
      sendTurn: createTurnSender({ client: browserClient() }),
    });
  }

  it('refuses an empty message naming `message`, before creating anything', async () => {
    const chat = session();
    const error = await chat.send('   ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/message: must contain text/);
    expect(server.requests).toHaveLength(0);
  });

  it('creates the conversation once, also under concurrency, and mints one token', async () => {
    const chat = session();
    const [a, b] = await Promise.all([chat.conversationId(), chat.conversationId()]);
    await Promise.all([chat.send('first'), chat.send('second')]);
    await chat.send('third');
    expect(a).toBe(b);
    expect(await chat.conversationId()).toBe(a);
    expect(server.count(CREATES)).toBe(1);
    expect(server.count(MINTS)).toBe(1);
    expect(server.count(TURNS)).toBe(3);
  });

  it('two instances sharing a store reuse one conversation and one token', async () => {
    const store = new MemoryCatalogStore();
    const [one, two] = [session(store), session(store)];
    await Promise.all([one.send('from one'), two.send('from two')]);
    expect(await one.conversationId()).toBe(await two.conversationId());
    expect(server.count(CREATES)).toBe(1);
    expect(server.count(MINTS)).toBe(1);
  });

  it('sends nothing on a timer: eight idle hours add no request', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const chat = session();
    const sent = chat.send('hello');
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(server.count(TURNS)).toBe(1));
    await sent;
    const before = server.requests.length;
    await vi.advanceTimersByTimeAsync(8 * 60 * MINUTE);
    expect(server.requests.length).toBe(before);
  });
});
