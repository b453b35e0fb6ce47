/*
 * Red-team findings on tool options and the chat session (issue 28): every bad setting is
 * named at once; an unsendable token is refused up front with a typed error. F6 (a `store`
 * getter) is retired: the tools have no `store` option since wave 4e (SECURITY.md). A look-alike client (F7) is TypeScript's to refuse since issue 33 (SECURITY.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession, createTurnSender } from '../src/conversations/index.js';
import {
  CatalogClient,
  ConfigurationError,
  MemoryCatalogStore,
  RequestValidationError,
} from '../src/index.js';
import { createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
let client: CatalogClient;

beforeAll(async () => {
  server = await startTestServer((_request, response) =>
    sendJson(response, 200, { collection_id: 'c1', name: 'n', description: null, clauses: [] }),
  );
  client = new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries: 0,
  });
});
afterAll(() => server.close());

describe('F7: the tools use the client through its type', () => {
  it('a stand-in with every member of CatalogToolClient is accepted', () => {
    const standIn = {
      catalog: { search: () => Promise.resolve({}) },
      websites: { search: () => Promise.resolve({}) },
      collections: { update: () => Promise.resolve({}) },
      store: new MemoryCatalogStore(),
      storeScope: () => Promise.resolve('stand-in'),
      redact: <T>(value: T) => value,
    };
    expect(createCatalogToolList({ client: standIn as never })).toHaveLength(3);
  });
});

describe('F10: ChatSession', () => {
  const minted = (token: string) => async () => ({ token, expiresAt: Date.now() + 30 * 60_000 });

  it('uses the trimmed sessionId: " u1" and "u1" are one session', async () => {
    const store = new MemoryCatalogStore();
    let created = 0;
    const session = (sessionId: string) =>
      new ChatSession({
        sessionId,
        store,
        createConversation: async () => ({ conversation_id: `conv${++created}` }),
        mintToken: minted('tok'),
        sendTurn: async () => ({}),
      });
    expect(await session(' u1').conversationId()).toBe('conv1');
    expect(await session('u1').conversationId()).toBe('conv1');
    expect(created).toBe(1);
  });

  it.each([
    ['CR/LF', 'tok_abc\r\nx-evil: 1'],
    ['NUL', 'tok_abc\u0000'],
    ['spaces', ' tok_abc '],
    ['non-ASCII', 'tok_abcé'],
  ])('a token with %s is refused before any request, the token never quoted', async (_n, token) => {
    const before = server.requests.length;
    const session = new ChatSession({
      sessionId: 's',
      createConversation: async () => ({ conversation_id: 'c1' }),
      mintToken: minted(token),
      sendTurn: createTurnSender({ client }),
    });
    const error = await session.send('hello').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual(['token']);
    expect((error as Error).message).not.toContain('tok_abc');
    expect(server.requests.length).toBe(before);
    session.close();
  });
});

describe('F8: every bad setting is named at once', () => {
  it('include/exclude names are checked alongside the other plain checks', () => {
    const options = {
      client,
      clientOptions: {},
      include: ['nope'],
      exclude: ['search_catalog', 'gone'],
      defaults: { limit: 21 },
      tools: [{ name: 'mine' }],
    };
    const error = (() => {
      try {
        createCatalogToolList(options as never);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('accepted');
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('give client or clientOptions, not both');
    expect(error.message).toContain('defaults.limit: must be a whole number from 1 to 20');
    expect(error.message).toMatch(/include\.0: must be one of search_catalog, .*mine/);
    expect(error.message).toMatch(/exclude\.1: must be one of /);
    expect(error.message).not.toMatch(/exclude\.0/);
    expect(error.message.match(/include\.0/g)).toHaveLength(1);
  });
});
