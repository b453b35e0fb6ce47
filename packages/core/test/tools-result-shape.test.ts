import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ConfigurationError } from '../src/errors/index.js';
import { createCatalogToolList, defineCatalogTool } from '../src/tools/index.js';
import { catalogPayload, TRICKY_BUY_LINK } from './support/fixtures.js';
import type { TestServer } from './support/test-server.js';
import { startToolService } from './support/tool-service.js';

// The one output shape (issue 28): every tool, built-in or custom, returns
// `{ request, response, tier? }` to the application; the adapters hand on that object.

let service: TestServer;

beforeAll(async () => {
  service = await startToolService();
});
afterAll(() => service.close());

const tools = (extra: Parameters<typeof createCatalogToolList>[0] = {}) =>
  createCatalogToolList({
    clientOptions: {
      apiKey: 'sk_test_shape_key',
      baseUrl: service.origin,
      mcpUrl: service.origin,
      maxRetries: 0,
    },
    ...extra,
  });

function builtIn<Name extends 'search_catalog' | 'search_websites' | 'update_collection'>(
  name: Name,
) {
  const tool = tools({ defaults: { limit: 4, country: 'DE' } }).find(
    (candidate) => candidate.originalName === name,
  );
  if (tool?.originalName !== name) throw new Error(`no ${name}`);
  return tool as Extract<typeof tool, { originalName: Name }>;
}

describe('every built-in returns { request, response, tier? }', () => {
  it('search_catalog: the query sent (defaults applied), the parsed result, the tier', async () => {
    const output = await builtIn('search_catalog').execute({
      query: 'trail shoes',
      limit: null,
      cursor: null,
      placements: null,
    });
    expect(Object.keys(output)).toEqual(['request', 'response', 'tier']);
    expect(output.request).toEqual({ query: 'trail shoes', pagination: { limit: 4 } });
    expect(output.tier).toBe('token');
    // Parsed leniently and never rewritten: the buy link byte for byte, unknown fields kept.
    expect(output.response.products[0]?.variants[0]?.url).toBe(TRICKY_BUY_LINK);
    expect(output.response.products.map((product) => product.id)).toEqual(
      catalogPayload().products.map((product) => product.id),
    );
  });

  it('search_websites: the parameters sent and the response, nothing else', async () => {
    const output = await builtIn('search_websites').execute({
      query: 'nike',
      limit: null,
      category_ids: null,
      country: null,
    });
    expect(output).toStrictEqual({
      request: { query: 'nike', limit: 4, country: 'DE' },
      response: { websites: [] },
    });
  });

  it('update_collection: { collectionId, update } as asked, the collection as answered', async () => {
    const output = await builtIn('update_collection').execute({
      collection_id: 'col_1',
      name: 'Summer',
      description: null,
      add_clauses: null,
      replace_clauses: null,
      remove_clause_ids: null,
    });
    expect(output).toStrictEqual({
      request: { collectionId: 'col_1', update: { name: 'Summer' } },
      response: { collection_id: 'col_1', name: 'Summer', clauses: [] },
    });
  });
});

describe('custom tools return the same shape', () => {
  const echo = defineCatalogTool({
    name: 'echo_note',
    description: () => 'Echoes a note.',
    inputSchema: z.strictObject({ note: z.string().describe('The note.') }),
    mutates: false,
    execute: async (input) => ({ request: input, response: { echoed: input.note } }),
    toModelOutput: (output) => `Echoed ${output.response.echoed}`,
  });

  it('is what execute hands on, and what toModelOutput reads', async () => {
    const [tool] = tools({ tools: [echo], include: ['echo_note'] });
    if (tool?.originalName !== 'echo_note') throw new Error('no echo_note');
    const output = await tool.execute({ note: 'hi' });
    expect(output).toStrictEqual({ request: { note: 'hi' }, response: { echoed: 'hi' } });
    expect(tool.toModelOutput(output)).toBe('Echoed hi');
  });

  it('a tool written without the types that returns another shape fails loudly, naming it', async () => {
    // What plain JavaScript could pass: the types would refuse it.
    const bare = {
      ...echo,
      name: 'bare_note',
      execute: async (input: { note: string }) => ({ echoed: input.note, secret: 'sk_x' }),
    } as unknown as typeof echo;
    const [tool] = tools({ tools: [bare], include: ['bare_note'] });
    const failure = await tool?.execute({ note: 'hi' } as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigurationError);
    expect(String(failure)).toMatch(
      /Tool bare_note returned no \{ request, response \}; execute must return a CatalogToolResult/,
    );
    // Not the model's to handle: the adapters rethrow it. Nothing of the value is shown.
    expect(tool?.errorToModelOutput(failure)).toBeUndefined();
    expect(String(failure)).not.toContain('sk_x');
    for (const value of [['a'], 'text', undefined, null, { request: 1 }]) {
      const odd = {
        ...bare,
        name: 'odd_note',
        execute: async () => value,
      } as unknown as typeof echo;
      const [oddTool] = tools({ tools: [odd], include: ['odd_note'] });
      await expect(oddTool?.execute({ note: 'x' } as never)).rejects.toThrowError(
        'Tool odd_note returned no { request, response };',
      );
    }
  });
});
