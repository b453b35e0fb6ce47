import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CatalogClient } from '../src/client.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { catalogPayload, rpcIdOf, TEST_KEY, TRICKY_BUY_LINK } from './support/fixtures.js';
import { sendJson, startTestServer, type TestServer } from './support/test-server.js';

// A service that echoes the key in a successful answer: the client cannot tell it is a
// secret there, so the tools scrub what the model reads.
let service: TestServer;

beforeAll(async () => {
  service = await startTestServer((request, response) => {
    const structuredContent = catalogPayload();
    const [product] = structuredContent.products;
    if (product) product.title = `Trail shoe for ${TEST_KEY}`;
    sendJson(
      response,
      200,
      {
        jsonrpc: '2.0',
        id: rpcIdOf(request.body),
        result: { content: [], structuredContent },
      },
      { 'x-ucp-auth-tier': 'token' },
    );
  });
});
afterAll(() => service.close());
afterEach(() => {
  vi.unstubAllEnvs();
});

const input = { query: 'trail shoe', limit: null, cursor: null, placements: null };

async function modelText(tool: AnyCatalogTool | undefined): Promise<string> {
  if (tool?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  return tool.toModelOutput(await tool.execute(input));
}

describe('what the model reads of a successful answer', () => {
  it('never contains the key given in clientOptions, and keeps the buy link', async () => {
    // Inline: the link itself is in the model's text, so its key-like bytes must survive.
    const [searchCatalog] = createCatalogToolList({
      clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, mcpUrl: service.origin },
      include: ['search_catalog'],
      buyLinks: 'inline',
    });
    const text = await modelText(searchCatalog);
    expect(text).not.toContain(TEST_KEY);
    expect(text).toContain('Trail shoe for [redacted]');
    expect(text).toContain(TRICKY_BUY_LINK);
  });

  it('never contains the key of CATALOG_API_KEY, also with a client instance', async () => {
    vi.stubEnv('CATALOG_API_KEY', TEST_KEY);
    const [searchCatalog] = createCatalogToolList({
      client: new CatalogClient({ baseUrl: service.origin, mcpUrl: service.origin }),
      include: ['search_catalog'],
    });
    const text = await modelText(searchCatalog);
    expect(text).not.toContain(TEST_KEY);
    expect(text).toContain('Trail shoe for [redacted]');
  });
});
