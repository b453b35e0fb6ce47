/*
 * Red-team findings on tool options and the chat session (issue 28): values are read once
 * and only the checked ones are used; a lookalike client or an unsendable token is refused
 * up front with a typed error.
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

describe('F6: tool options are read once; only the checked values are bound', () => {
  it('a store getter is read once, and the store checked is the store used', async () => {
    const good = new MemoryCatalogStore();
    let reads = 0;
    const options = {
      client,
      get store() {
        reads += 1;
        return reads === 1 ? good : { junk: true };
      },
    };
    const tools = createCatalogToolList(options as never);
    expect(reads).toBe(1);
    const update = tools.find((tool) => tool.name === 'update_collection');
    const output = await update?.execute(
      {
        collection_id: 'c1',
        name: 'renamed',
        description: null,
        add_clauses: null,
        replace_clauses: null,
        remove_clause_ids: null,
      } as never,
      {} as never,
    );
    expect(output).toBeDefined();
    expect(reads).toBe(1);
  });
});

describe('F7: a client must have what the tools use', () => {
  it.each([
    ['numbers', { catalog: 1, websites: 1, collections: 1 }],
    ['objects without methods', { catalog: {}, websites: {}, collections: {} }],
    [
      'no collections.update',
      { catalog: { search() {} }, websites: { search() {} }, collections: { update: 1 } },
    ],
  ])('%s: ConfigurationError naming client', (_name, fake) => {
    expect(() => createCatalogToolList({ client: fake as never })).toThrowError(ConfigurationError);
    expect(() => createCatalogToolList({ client: fake as never })).toThrowError(
      /client: must be a CatalogClient/,
    );
  });

  it('a stand-in with every member the tools use is still accepted', () => {
    const standIn = {
      catalog: { search: () => Promise.resolve({}) },
      websites: { search: () => Promise.resolve({}) },
      collections: { update: () => Promise.resolve({}) },
      store: new MemoryCatalogStore(),
      storeScope: () => Promise.resolve('stand-in'),
      redact: <T>(value: T) => value,
      hasApiKey: true,
      toJSON: () => client.toJSON(),
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
  it('include/exclude names are checked even when other fields are bad', () => {
    const options = {
      client: 1,
      strict: 'yes',
      include: [1, 'nope'],
      exclude: ['search_catalog', 'gone'],
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
    expect(error.message).toContain('client: must be a CatalogClient');
    expect(error.message).toContain('strict: must be true or false');
    expect(error.message).toContain('include.0: must be a tool name');
    expect(error.message).toMatch(/include\.1: must be one of search_catalog, .*mine/);
    expect(error.message).toMatch(/exclude\.1: must be one of /);
    expect(error.message).not.toMatch(/exclude\.0/);
    // Named once, not twice, when only the names are wrong (the full check reports them).
    const onlyNames = () => createCatalogToolList({ client, include: ['nope'] });
    expect(onlyNames).toThrowError(ConfigurationError);
    try {
      onlyNames();
    } catch (caught) {
      expect((caught as Error).message.match(/include\.0/g)).toHaveLength(1);
    }
  });
});
