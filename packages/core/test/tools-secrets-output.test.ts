import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createRedactor } from '../src/http/redact.js';
import { createCatalogToolList, defineCatalogTool } from '../src/tools/index.js';
import { catalogPayload, rpcIdOf, TEST_KEY, TRICKY_BUY_LINK } from './support/fixtures.js';
import { sendJson, startTestServer } from './support/test-server.js';

// Tool OUTPUTS, not only the model's text: an application forwards them (AI SDK UI streams
// them to the browser, LangChain keeps them as artifacts, MCP sends structuredContent), so
// a key the service echoes inside a successful answer must be gone from them too.

const hasKey = (value: unknown) => JSON.stringify(value).toLowerCase().includes(TEST_KEY);

/** A service that echoes the key it receives in every answer: in text, names and links. */
function startEchoingService() {
  return startTestServer((request, response) => {
    const key = String(request.headers['x-api-key'] ?? '');
    if (request.url.startsWith('/v1/websites/search')) {
      return sendJson(response, 200, {
        websites: [{ id: 'web_1', url: `https://shop.example/?k=${key}`, name: key.toUpperCase() }],
      });
    }
    if (request.method === 'PATCH') {
      return sendJson(response, 200, {
        collection_id: 'col_1',
        name: `Summer (${key})`,
        clauses: [],
        [`debug_${key}`]: true,
      });
    }
    const structuredContent = catalogPayload();
    const [product] = structuredContent.products;
    if (product) {
      product.title = `Trail shoe for ${key}`;
      product.x_unknown_product_field = { nested: true, [key]: [key, { deeper: key }] } as never;
    }
    sendJson(
      response,
      200,
      { jsonrpc: '2.0', id: rpcIdOf(request.body), result: { content: [], structuredContent } },
      { 'x-ucp-auth-tier': 'token' },
    );
  });
}

describe('what a tool returns to the application', () => {
  it('carries no key echoed by the service, in any tool, and keeps the rest byte for byte', async () => {
    const service = await startEchoingService();
    try {
      const tools = createCatalogToolList({
        clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, mcpUrl: service.origin },
      });
      const byName = new Map(tools.map((tool) => [tool.originalName, tool]));
      const search = byName.get('search_catalog');
      const websites = byName.get('search_websites');
      const update = byName.get('update_collection');
      if (search?.originalName !== 'search_catalog') throw new Error('no search_catalog');
      if (websites?.originalName !== 'search_websites') throw new Error('no search_websites');
      if (update?.originalName !== 'update_collection') throw new Error('no update_collection');

      const found = await search.execute({
        query: 'trail shoe',
        limit: null,
        cursor: null,
        placements: null,
      });
      expect(hasKey(found)).toBe(false);
      expect(found.response.products[0]?.title).toBe('Trail shoe for [redacted]');
      expect(found.response.products[0]?.variants[0]?.url).toBe(TRICKY_BUY_LINK);

      const sites = await websites.execute({
        query: 'shoes',
        limit: null,
        category_ids: null,
        country: null,
      });
      expect(hasKey(sites)).toBe(false);

      const updated = await update.execute({
        collection_id: 'col_1',
        name: 'Summer',
        description: null,
        add_clauses: null,
        replace_clauses: null,
        remove_clause_ids: null,
      });
      expect(hasKey(updated)).toBe(false);
      // Each answer did carry the key: the service really echoed it.
      expect(service.requests.length).toBe(3);
    } finally {
      await service.close();
    }
  });

  it('carries no key from a custom tool either (bound the same way)', async () => {
    const leaky = defineCatalogTool({
      name: 'leaky_tool',
      description: () => 'Returns what the service said.',
      inputSchema: z.object({ q: z.string() }).strict(),
      mutates: false,
      execute: async (input) => ({
        request: input,
        response: { said: `${input.q} ${TEST_KEY.toUpperCase()}`, list: [TEST_KEY] },
      }),
      toModelOutput: (output) => output.response.said,
    });
    const [tool] = createCatalogToolList({
      clientOptions: {
        apiKey: TEST_KEY,
        baseUrl: 'http://127.0.0.1:9',
        mcpUrl: 'http://127.0.0.1:9',
      },
      include: ['leaky_tool'],
      tools: [leaky],
    });
    const output = await tool?.execute({ q: 'hello' } as never);
    expect(output).toEqual({
      request: { q: 'hello' },
      response: { said: 'hello [redacted]', list: ['[redacted]'] },
    });
  });
});

describe('the redactor on values (one walk for errors, tool output and model text)', () => {
  const redact = createRedactor(TEST_KEY);

  it('returns a value without a secret itself, and shares the parts a copy leaves unchanged', () => {
    const clean = { a: [1, 'two', { three: null }], b: { c: 'd' } };
    expect(redact(clean)).toBe(clean);
    const mixed = { clean: clean.b, dirty: [`x${TEST_KEY}`], [TEST_KEY]: 1 };
    const copy = redact(mixed);
    expect(copy).toEqual({ clean: { c: 'd' }, dirty: ['x[redacted]'], '[redacted]': 1 });
    expect(copy.clean).toBe(clean.b);
    expect(mixed.dirty[0]).toBe(`x${TEST_KEY}`);
  });

  it('redacts a part shared by two parents in both places', () => {
    const shared = { key: TEST_KEY };
    const copy = redact({ list: [shared], again: shared });
    expect(JSON.stringify(copy)).not.toContain(TEST_KEY);
  });

  it('stops at 300 levels (answers nest at most 64, requests 256), and at a cycle, with [redacted]', () => {
    let deep: unknown = [TEST_KEY];
    for (let level = 0; level < 200_000; level++) deep = [deep];
    let copy = redact(deep); // 200,000 levels: no stack overflow
    for (let level = 0; level <= 300; level++) copy = (copy as unknown[])[0];
    expect(copy).toBe('[redacted]');
    let shallow: unknown = [TEST_KEY];
    for (let level = 0; level < 299; level++) shallow = [shallow];
    expect(JSON.stringify(redact(shallow))).toBe(
      `${'['.repeat(300)}"[redacted]"${']'.repeat(300)}`,
    );
    const cyclic: Record<string, unknown> = { key: TEST_KEY, list: [] };
    cyclic.self = cyclic;
    (cyclic.list as unknown[]).push(cyclic);
    const redacted = redact(cyclic);
    expect(redacted).toEqual({ key: '[redacted]', list: ['[redacted]'], self: '[redacted]' });
  });

  it('keeps a list’s items at their indices: a hole reads undefined (R4j: items moved)', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case
    const sparse = [, TEST_KEY, 'x'];
    const copy = redact(sparse);
    expect(copy).toHaveLength(3);
    expect([0, 1, 2].map((i) => copy[i])).toEqual([undefined, '[redacted]', 'x']);
  });

  it('walks its 300 levels, and ends 200,000, on 40% of Node’s default stack (R4j: stack use)', () => {
    // A child process with --stack-size=400 (KiB; the default is 984): the walk recurses a
    // frame a level, so a caller deep in its own stack must still have room for it.
    const script = `
      import { createRedactor } from ${JSON.stringify(new URL('../src/http/redact.ts', import.meta.url).href)};
      let deep = [{ key: ${JSON.stringify(TEST_KEY)} }];
      for (let level = 0; level < 200000; level++) deep = [deep];
      let copy = createRedactor(${JSON.stringify(TEST_KEY)})(deep);
      let levels = 0;
      while (Array.isArray(copy)) [copy, levels] = [copy[0], levels + 1];
      process.stdout.write(levels + ' ' + copy);`;
    const args = ['--stack-size=400', '--import', 'tsx', '--input-type=module', '-e', script];
    expect(execFileSync(process.execPath, args, { encoding: 'utf8' })).toBe('301 [redacted]');
  });

  it('leaves class instances alone (they are the application’s own)', () => {
    const date = new Date(0);
    expect(redact({ at: date, key: TEST_KEY }).at).toBe(date);
  });
});
