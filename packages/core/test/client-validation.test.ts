import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogClient, ConfigurationError, RequestValidationError } from '../src/index.js';
import { TEST_KEY } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
let client: CatalogClient;

beforeEach(async () => {
  server = await startTestServer((_request, response) => sendJson(response, 200, {}));
  client = new CatalogClient({ apiKey: TEST_KEY, baseUrl: server.origin, mcpUrl: server.origin });
});
afterEach(() => {
  vi.unstubAllEnvs();
  return server.close();
});

async function rejection(promise: Promise<unknown>): Promise<RequestValidationError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

describe('requests are validated before sending', () => {
  it('limit above 20 names the field', async () => {
    const error = await rejection(client.websites.search({ query: 'nike', limit: 21 }));
    expect(error.message).toBe('Invalid websites.search request: limit: must be at most 20');
    expect(error.issues).toEqual([{ path: 'limit', message: 'must be at most 20' }]);
    expect(server.requests).toHaveLength(0);
  });

  it('query length, country and category_ids are checked, every field named', async () => {
    const error = await rejection(
      client.websites.search({
        query: 'x'.repeat(201),
        limit: 0,
        // @ts-expect-error: not in the CountryCode enumeration
        country: 'JP',
        category_ids: [''],
      }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'query',
      'limit',
      'category_ids.0',
      'country',
    ]);
    expect(error.message).toContain('query: must be at most 200 characters');
    expect(error.message).toContain('limit: must be at least 1');
    expect(error.message).toContain('country: must be one of US, GB');
    expect(error.message).toContain('category_ids.0: must not be empty');
    expect(server.requests).toHaveLength(0);
  });

  it('an empty query and an unknown parameter are refused', async () => {
    // @ts-expect-error: unknown parameter
    const error = await rejection(client.websites.search({ query: '', page: 2 }));
    expect(error.message).toContain('query: must not be empty');
    expect(error.message).toContain('unknown field page');
  });

  it('a collection update checks the id, the clauses and that something is given', async () => {
    const empty = await rejection(client.collections.update('col_1', {}));
    expect(empty.message).toContain('Give at least one of');
    const badClause = await rejection(
      client.collections.update('', {
        // @ts-expect-error: clause_id is not allowed when adding
        add_clauses: [{ clause_id: 'c', brand_ids: [], website_ids: [], category_ids: [] }],
      }),
    );
    expect(badClause.issues).toEqual(
      expect.arrayContaining([
        { path: 'collection_id', message: 'must not be empty' },
        { path: 'add_clauses.0.product_ids', message: 'expected array' },
      ]),
    );
    expect(server.requests).toHaveLength(0);
  });

  it('catalog search checks catalog fields under their wire path', async () => {
    const error = await rejection(client.catalog.search({ query: '  ', pagination: { limit: 0 } }));
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'catalog.query',
      'catalog.pagination.limit',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('conversations.create refuses a non-object body', async () => {
    // @ts-expect-error: must be an object
    const error = await rejection(client.conversations.create('hello'));
    expect(error.issues[0]?.path).toBe('body');
  });
});

describe('configuration', () => {
  it('a REST call without a key fails clearly and sends nothing', async () => {
    vi.stubEnv('CATALOG_API_KEY', '');
    const keyless = new CatalogClient({ baseUrl: server.origin });
    const error = await keyless.websites.search({ query: 'nike' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('apiKey');
    expect(error.message).toContain('CATALOG_API_KEY');
    await expect(keyless.collections.update('c', { name: 'n' })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(keyless.conversations.create()).rejects.toBeInstanceOf(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });

  it('a missing base URL names the option and the environment variable', async () => {
    vi.stubEnv('CATALOG_BASE_URL', '');
    const error = await new CatalogClient({ apiKey: TEST_KEY }).websites
      .search({ query: 'nike' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('baseUrl');
    expect(error.message).toContain('CATALOG_BASE_URL');
  });

  it('a missing MCP URL names the option and the environment variable', async () => {
    vi.stubEnv('CATALOG_MCP_URL', '');
    const error = await new CatalogClient().catalog
      .search({ query: 'x' })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/mcpUrl.*CATALOG_MCP_URL/);
  });

  it('falls back to CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL', async () => {
    vi.stubEnv('CATALOG_API_KEY', TEST_KEY);
    vi.stubEnv('CATALOG_BASE_URL', `${server.origin}/api/`);
    vi.stubEnv('CATALOG_MCP_URL', `${server.origin}/ucp`);
    const fromEnv = new CatalogClient();
    server.handle((_request, response) => sendJson(response, 200, { websites: [] }));
    await fromEnv.websites.search({ query: 'nike' });
    expect(server.requests[0]?.url).toBe('/api/v1/websites/search?query=nike');
    expect(server.requests[0]?.headers['x-api-key']).toBe(TEST_KEY);
    expect(fromEnv.toJSON()).toMatchObject({
      mcpUrl: `${server.origin}/ucp`,
      apiKey: '[redacted]',
    });
  });

  it('options win over the environment', () => {
    vi.stubEnv('CATALOG_BASE_URL', 'http://env.invalid');
    const explicit = new CatalogClient({ baseUrl: 'http://option.invalid' });
    expect(explicit.toJSON().baseUrl).toBe('http://option.invalid');
  });

  it('bad options are ConfigurationErrors naming the option', () => {
    expect(() => new CatalogClient({ baseUrl: 'not a url' })).toThrow(
      /option baseUrl is not a valid URL/,
    );
    expect(() => new CatalogClient({ mcpUrl: 'ftp://x' })).toThrow(
      /option mcpUrl must be an http\(s\) URL/,
    );
    // Paths are appended to these URLs: a query or fragment would swallow them.
    expect(() => new CatalogClient({ baseUrl: 'http://h.invalid/api?tenant=1' })).toThrow(
      /option baseUrl must not have a query or fragment/,
    );
    expect(() => new CatalogClient({ mcpUrl: 'http://h.invalid/#x' })).toThrow(
      /option mcpUrl must not have a query or fragment/,
    );
    expect(() => new CatalogClient({ timeoutMs: 0 })).toThrow(/option timeoutMs/);
    expect(() => new CatalogClient({ maxRetries: 1.5 })).toThrow(/option maxRetries/);
    expect(() => new CatalogClient({ maxRetryDelayMs: -1 })).toThrow(/option maxRetryDelayMs/);
    // From JavaScript, a near miss must not quietly send the key in the other header.
    const mcpAuthHeader = 'Bearer' as 'bearer';
    expect(() => new CatalogClient({ mcpAuthHeader })).toThrow(/option mcpAuthHeader/);
  });

  it('a bad URL in the environment names the variable', () => {
    vi.stubEnv('CATALOG_BASE_URL', '::nope');
    expect(() => new CatalogClient()).toThrow(/CATALOG_BASE_URL is not a valid URL/);
  });

  it('loads where `process` does not exist', async () => {
    const saved = globalThis.process;
    // Simulates a browser or edge worker for the constructor's environment lookup.
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true });
    try {
      const bare = new CatalogClient({ mcpUrl: 'http://127.0.0.1:9' });
      expect(bare.hasApiKey).toBe(false);
      expect(bare.toJSON().baseUrl).toBeUndefined();
    } finally {
      Object.defineProperty(globalThis, 'process', { value: saved, configurable: true });
    }
  });
});
