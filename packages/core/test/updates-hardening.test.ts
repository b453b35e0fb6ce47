import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpTokenMinter } from '../src/conversations/index.js';
import {
  CatalogClient,
  type CatalogError,
  ProtocolError,
  RequestValidationError,
} from '../src/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import {
  type ReceivedRequest,
  sendJson,
  startTestServer,
  type TestServer,
} from './support/test-server.js';

/*
 * Collection updates under attack (issue 23): a change answered 2xx but unreadable, and
 * collection ids that would move the PATCH to another path once fetch normalises it.
 */

type Answer = (response: ServerResponse) => void;

/** A collection service that applies every PATCH and POST it reads, then answers as told. */
let answer: Answer = (response) => sendJson(response, 200, { collection_id: 'col_1' });
let applied = 0;
let service: TestServer;

function handle(request: ReceivedRequest, response: ServerResponse) {
  if (request.method === 'PATCH' || request.method === 'POST') applied += 1;
  answer(response);
}

beforeAll(async () => {
  service = await startTestServer(handle);
});
afterAll(() => service.close());
beforeEach(() => {
  applied = 0;
  service.requests.length = 0;
});

function client(): CatalogClient {
  return new CatalogClient({ apiKey: TEST_KEY, baseUrl: `${service.origin}/api`, maxRetries: 2 });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

/** 2xx answers a client cannot read although the service applied the change. */
const UNREADABLE_2XX: [string, Answer][] = [
  ['200 {"ok":true}', (response) => sendJson(response, 200, { ok: true })],
  ['200 with an empty body', (response) => response.writeHead(200).end()],
  ['200 null', (response) => sendJson(response, 200, null)],
  ['204 No Content', (response) => response.writeHead(204).end()],
  [
    '200 text/html',
    (response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>'),
  ],
  [
    '200 truncated JSON',
    (response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"collection_id":'),
  ],
  ['201 {"collection_id": 7}', (response) => sendJson(response, 201, { collection_id: 7 })],
];

describe('a change answered 2xx but unreadable: applied, outcome unknown', () => {
  it.each(UNREADABLE_2XX)(
    'collections.update after %s throws ProtocolError with outcomeUnknown, sent once',
    async (_label, unreadable) => {
      answer = unreadable;
      const error = await failureOf(client().collections.update('col_1', { name: 'Winter' }));
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as CatalogError).outcomeUnknown).toBe(true);
      expect(applied).toBe(1);
    },
  );

  // A conversation is an open object: only answers that are not one stay unreadable.
  const UNREADABLE_CONVERSATION = UNREADABLE_2XX.filter(([label]) => !label.includes('{'));

  it.each(UNREADABLE_CONVERSATION)(
    'conversations.create after %s throws ProtocolError with outcomeUnknown',
    async (_label, unreadable) => {
      answer = unreadable;
      const error = await failureOf(client().conversations.create({}));
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as CatalogError).outcomeUnknown).toBe(true);
      expect(applied).toBe(1);
    },
  );

  it('a token mint answered 201 {"ok":true} created a token: outcomeUnknown, sent once', async () => {
    answer = (response) => sendJson(response, 201, { ok: true });
    const mint = createHttpTokenMinter({ client: client(), conversationId: 'cv_1' });
    const error = await failureOf(mint({ signal: new AbortController().signal }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as CatalogError).outcomeUnknown).toBe(true);
    expect(applied).toBe(1);
  });

  it('update_collection: two identical adds after 200 {"ok":true} apply the change once', async () => {
    answer = (response) => sendJson(response, 200, { ok: true });
    const [update] = createCatalogToolList({
      clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin },
      include: ['update_collection'],
    }) as AnyCatalogTool[];
    if (!update) throw new Error('no update_collection tool');
    const call = async () => {
      try {
        return update.toModelOutput(
          (await update.execute({
            collection_id: 'col_1',
            add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: ['p'] }],
          } as never)) as never,
        );
      } catch (error) {
        return update.errorToModelOutput(error) ?? `rethrown: ${String(error)}`;
      }
    };
    const first = await call();
    expect(first).toContain('outcome is unknown');
    expect(first).not.toMatch(/try (once )?(more|again)/i);
    const second = await call();
    expect(second).toContain('Not sent');
    expect(applied).toBe(1);
  });
});

/** Ids that change the path of the PATCH after fetch's normalisation, or could on the server. */
const PATH_CHANGING_IDS = [
  '.',
  '..',
  'a/b',
  '../admin',
  'col\\1',
  'col?x=1',
  'col#frag',
  'col%2F1',
  '%2e%2e',
  'col 1',
  ' col_1',
  'col_1\t',
  'col\n1',
  'col\u00a01',
  'col\u2028',
  'col\u0000',
  'col\u007f',
  'col\u0085',
  '\u200b..',
  '..\u00ad',
  'col\ufeff1',
  'col\u202e1',
];

describe('collection_id that would leave /v1/collections/{id}', () => {
  it.each(PATH_CHANGING_IDS)(
    'client refuses %j naming collection_id, sending nothing',
    async (id) => {
      const error = await failureOf(client().collections.update(id, { name: 'Winter' }));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues.map((issue) => issue.path)).toEqual([
        'collection_id',
      ]);
      expect(service.requests).toHaveLength(0);
    },
  );

  it.each(['.', '..', 'a/b', 'x?y', '%2e'])(
    'the update_collection tool refuses %j naming collection_id',
    async (id) => {
      const [update] = createCatalogToolList({
        clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin },
        include: ['update_collection'],
      }) as AnyCatalogTool[];
      const error = await failureOf(
        update?.execute({ collection_id: id, name: 'Winter' } as never) ?? Promise.resolve(),
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(String((error as Error).message)).toContain('collection_id');
      expect(service.requests).toHaveLength(0);
    },
  );

  it('ids that are one path segment are sent percent-encoded to exactly that path', async () => {
    answer = (response) => sendJson(response, 200, { collection_id: 'x' });
    for (const id of ['col_summer', '...', '.a', 'a.', 'col:1+é', 'кол', '👟', "a'b(c)*!~"]) {
      await client().collections.update(id, { name: 'Winter' });
      expect(service.requests.at(-1)?.url).toBe(`/api/v1/collections/${encodeURIComponent(id)}`);
    }
  });
});
