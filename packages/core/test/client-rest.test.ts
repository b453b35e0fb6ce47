import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogClient, ConfigurationError, ProtocolError } from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
let client: CatalogClient;

beforeEach(async () => {
  server = await startTestServer();
  client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: `${server.origin}/api`, maxRetries: 0 });
});
afterEach(() => server.close());

describe('websites.search', () => {
  it('sends GET /v1/websites/search with the key and only the given parameters', async () => {
    server.handle((_request, response) =>
      sendJson(response, 200, { websites: [{ id: 'w1', url: 'https://nike.com', extra: 'kept' }] }),
    );
    const answer = await client.websites.search({ query: 'nike' });
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/api/v1/websites/search?query=nike');
    expect(request?.headers['x-api-key']).toBe(TEST_KEY);
    expect(answer.websites[0]).toEqual({ id: 'w1', url: 'https://nike.com', extra: 'kept' });
  });

  it('repeats category_ids and sends limit and country', async () => {
    server.handle((_request, response) => sendJson(response, 200, { websites: [] }));
    await client.websites.search({
      query: 'shoes & co',
      limit: 20,
      category_ids: ['a', 'b'],
      country: 'GB',
    });
    const url = new URL(server.requests[0]?.url ?? '', server.origin);
    expect(url.searchParams.get('query')).toBe('shoes & co');
    expect(url.searchParams.get('limit')).toBe('20');
    expect(url.searchParams.getAll('category_ids')).toEqual(['a', 'b']);
    expect(url.searchParams.get('country')).toBe('GB');
  });

  it('percent-encodes every value, so the service decodes exactly what was given', async () => {
    server.handle((_request, response) => sendJson(response, 200, { websites: [] }));
    const query = 'a+b c&d=e#f?g/h%20 Zürich 👟';
    const categories = ['x&y', 'shoes/running', '+1'];
    await client.websites.search({ query, category_ids: categories });
    const sent = server.requests[0]?.url ?? '';
    expect(sent).toBe(
      `/api/v1/websites/search?query=${encodeURIComponent(query)}&category_ids=x%26y&category_ids=shoes%2Frunning&category_ids=%2B1`,
    );
    const url = new URL(sent, server.origin);
    expect(url.searchParams.get('query')).toBe(query);
    expect(url.searchParams.getAll('category_ids')).toEqual(categories);
  });

  it('reports an answer missing `websites` as a ProtocolError naming the field', async () => {
    server.handle((_request, response) => sendJson(response, 200, { sites: [] }));
    const error = await client.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('websites');
  });
});

describe('collections.update', () => {
  it('PATCHes only the given fields to the encoded collection path', async () => {
    server.handle((_request, response) =>
      sendJson(response, 200, {
        collection_id: 'col:1+é',
        name: 'Winter',
        clauses: [],
        owner_note: 'x',
      }),
    );
    const collection = await client.collections.update('col:1+é', {
      name: 'Winter',
      add_clauses: [{ brand_ids: ['b1'], website_ids: [], category_ids: [], product_ids: [] }],
    });
    const [request] = server.requests;
    expect(request?.method).toBe('PATCH');
    expect(request?.url).toBe('/api/v1/collections/col%3A1%2B%C3%A9');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      name: 'Winter',
      add_clauses: [{ brand_ids: ['b1'], website_ids: [], category_ids: [], product_ids: [] }],
    });
    expect(collection).toMatchObject({ collection_id: 'col:1+é', name: 'Winter', owner_note: 'x' });
  });

  it('drops fields given as undefined instead of sending them', async () => {
    server.handle((_request, response) => sendJson(response, 200, { collection_id: 'c' }));
    await client.collections.update('c', { name: undefined, remove_clause_ids: ['cl_1'] });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ remove_clause_ids: ['cl_1'] });
  });
});

describe('conversations.create', () => {
  it('POSTs the body (or {}) and returns the open record', async () => {
    server.handle((_request, response) =>
      sendJson(response, 201, {
        conversation_id: 'cv_1',
        created_at: '2026-01-01T00:00:00Z',
        extra: 1,
      }),
    );
    const conversation = await client.conversations.create();
    await client.conversations.create({ shopper: 'anon-7' });
    expect(conversation).toEqual({
      conversation_id: 'cv_1',
      created_at: '2026-01-01T00:00:00Z',
      extra: 1,
    });
    expect(
      server.requests.map((request) => [request.method, request.url, JSON.parse(request.body)]),
    ).toEqual([
      ['POST', '/api/v1/conversations', {}],
      ['POST', '/api/v1/conversations', { shopper: 'anon-7' }],
    ]);
  });
});

describe('request (low level)', () => {
  it('sends a bearer token instead of the key when asked, and returns status and headers', async () => {
    server.handle((_request, response) =>
      sendJson(response, 201, { token: 't' }, { date: 'Tue, 01 Jan 2030 00:00:00 GMT' }),
    );
    const answer = await client.request({
      operation: 'conversations.turns',
      method: 'POST',
      path: '/v1/conversations/cv_1/turns',
      body: { message: 'hi' },
      retry: 'once',
      auth: { type: 'bearer', token: 'tok_1' },
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer tok_1');
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
    expect(answer.status).toBe(201);
    expect(answer.headers.get('date')).toBe('Tue, 01 Jan 2030 00:00:00 GMT');
    expect(answer.data).toEqual({ token: 't' });
  });

  it('refuses a bearer token fetch cannot send before sending, naming the header, not the value', async () => {
    const error = await client
      .request({
        operation: 'conversations.turns',
        method: 'POST',
        path: '/v1/conversations/cv_1/turns',
        retry: 'once',
        auth: { type: 'bearer', token: 'tok_secret_9f8e\nsecond-line' },
      })
      .catch((caught) => caught);
    expect(server.requests).toHaveLength(0);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.outcomeUnknown).toBe(false);
    expect(error.message).toContain('"authorization"');
    expect(error.message).not.toContain('tok_secret_9f8e');
  });

  it('takes the query as URLSearchParams or as an encoded string', async () => {
    server.handle((_request, response) => sendJson(response, 200, {}));
    const base = {
      operation: 'custom',
      method: 'GET',
      path: '/v1/x',
      retry: 'idempotent',
    } as const;
    await client.request({ ...base, query: new URLSearchParams({ q: 'a b&c' }) });
    await client.request({ ...base, query: 'q=a%20b%26c' });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/x?q=a+b%26c',
      '/api/v1/x?q=a%20b%26c',
    ]);
  });

  it('sends every request through the fetch option when one is given', async () => {
    // A real fetch, wrapped the way an app adds tracing: it must be the one called.
    const seen: string[] = [];
    const traced: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    const custom = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, fetch: traced });
    server.handle((_request, response) => sendJson(response, 200, { websites: [] }));
    await custom.websites.search({ query: 'x' });
    expect(seen).toEqual([`${server.origin}/v1/websites/search?query=x`]);
    expect(server.requests).toHaveLength(1);
  });

  it('sends caller headers but lets the client own content-type and the credential', async () => {
    const custom = new CatalogClient({
      apiKey: TEST_KEY,
      baseUrl: server.origin,
      headers: { 'X-Trace': 'abc', 'X-Api-Key': 'wrong' },
    });
    server.handle((_request, response) => sendJson(response, 200, { websites: [] }));
    await custom.websites.search({ query: 'x' });
    expect(server.requests[0]?.headers['x-trace']).toBe('abc');
    expect(server.requests[0]?.headers['x-api-key']).toBe(TEST_KEY);
  });
});
