import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { openAiStrictProblems } from '../../testing/src/stand-ins/schema-rules.js';
import { RequestValidationError } from '../src/errors/index.js';
import { type AnyCatalogTool, createCatalogToolList } from '../src/tools/index.js';
import { TEST_KEY } from './support/fixtures.js';
import type { TestServer } from './support/test-server.js';
import { startToolService } from './support/tool-service.js';

// A loopback service that records what the tools send: REST answers for websites and
// collections, a JSON-RPC answer for the catalog search.
let service: TestServer;

beforeAll(async () => {
  service = await startToolService();
});
afterAll(() => service.close());

function tools(): Record<string, AnyCatalogTool> {
  const list = createCatalogToolList({
    clientOptions: { apiKey: TEST_KEY, baseUrl: service.origin, mcpUrl: service.origin },
  });
  return Object.fromEntries(list.map((tool) => [tool.originalName, tool]));
}

/** Runs a tool on raw model input; returns the wire request it sent, or the error. */
async function sent(name: string, input: unknown): Promise<unknown> {
  const before = service.requests.length;
  const tool = tools()[name] as AnyCatalogTool;
  await tool.execute(input as never);
  const request = service.requests.at(-1);
  expect(service.requests.length).toBe(before + 1);
  if (request?.method === 'GET')
    return Object.fromEntries(new URL(request.url, 'http://x').searchParams);
  const body = JSON.parse(request?.body ?? '{}');
  return body.params?.arguments?.catalog ?? body;
}

async function refusal(name: string, input: unknown): Promise<RequestValidationError> {
  const before = service.requests.length;
  const tool = tools()[name] as AnyCatalogTool;
  const error = await tool.execute(input as never).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RequestValidationError);
  // Nothing reaches the service.
  expect(service.requests.length).toBe(before);
  return error as RequestValidationError;
}

describe('what a model may send', () => {
  it('leaves out optional fields: the same as null', async () => {
    expect(await sent('search_catalog', { query: 'running shoes' })).toEqual({
      query: 'running shoes',
      pagination: { limit: 5 },
    });
    expect(await sent('search_websites', { query: 'nike' })).toEqual({ query: 'nike' });
    expect(
      await sent('update_collection', { collection_id: 'col_1', remove_clause_ids: ['cl_1'] }),
    ).toEqual({ remove_clause_ids: ['cl_1'] });
  });

  it('sends numbers as text, countries in any case or as UK, lone strings and enum values in any case', async () => {
    expect(
      await sent('search_catalog', { query: ' socks ', limit: ' 7', placements: 'AFFILIATE' }),
    ).toEqual({ query: 'socks', pagination: { limit: 7 }, placements: ['affiliate'] });
    expect(
      await sent('search_catalog', { query: 'socks', limit: null, placements: ['Affiliate'] }),
    ).toMatchObject({ placements: ['affiliate'] });
    expect(
      await sent('search_websites', {
        query: 'nike',
        limit: '3',
        category_ids: 'shoes',
        country: 'uk',
      }),
    ).toEqual({ query: 'nike', limit: '3', category_ids: 'shoes', country: 'GB' });
    expect(await sent('search_websites', { query: 'nike', country: ' de ' })).toMatchObject({
      country: 'DE',
    });
  });

  it('leaves out the empty selectors of a new clause, and gives lone ids', async () => {
    expect(
      await sent('update_collection', {
        collection_id: ' col_1 ',
        add_clauses: [{ product_ids: 'prod_1' }],
        remove_clause_ids: 'cl_9',
      }),
    ).toEqual({
      add_clauses: [{ product_ids: ['prod_1'], brand_ids: [], website_ids: [], category_ids: [] }],
      remove_clause_ids: ['cl_9'],
    });
    expect(service.requests.at(-1)?.url).toBe('/v1/collections/col_1');
  });
});

describe('lists sent as JSON text (the MCP Inspector CLI, some hosts)', () => {
  it('takes a string holding a JSON list wherever a list is expected', async () => {
    expect(
      await sent('search_catalog', { query: 'socks', placements: ' ["AFFILIATE"] ' }),
    ).toMatchObject({ placements: ['affiliate'] });
    expect(
      await sent('update_collection', {
        collection_id: 'col_1',
        add_clauses: '[{"product_ids": "[\\"prod_1\\", \\"prod_2\\"]"}, {"brand_ids": ["b_1"]}]',
        remove_clause_ids: '["cl_9"]',
      }),
    ).toEqual({
      // Sent as the model gave them.
      add_clauses: [
        { product_ids: ['prod_1', 'prod_2'], brand_ids: [], website_ids: [], category_ids: [] },
        { brand_ids: ['b_1'], website_ids: [], category_ids: [], product_ids: [] },
      ],
      remove_clause_ids: ['cl_9'],
    });
  });

  it('holds the parsed list to the same rules, and takes text that is not a JSON list as text', async () => {
    const placements = await refusal('search_catalog', {
      query: 'socks',
      placements: '["affiliate", "sponsored"]',
    });
    expect(placements.issues.map((issue) => issue.path)).toEqual(['placements.1']);
    const clauses = await refusal('update_collection', {
      collection_id: 'col_1',
      add_clauses: '[{"product_ids": ["p"], "colour": "red"}]',
    });
    expect(clauses.message).toContain('unknown field colour');
    // Not a JSON list: a broken one stays one (refused) item; an object is not a list.
    const broken = await refusal('search_catalog', { query: 'socks', placements: '["affiliate"' });
    expect(broken.issues.map((issue) => issue.path)).toEqual(['placements.0']);
    const notList = await refusal('update_collection', {
      collection_id: 'col_1',
      add_clauses: '{"product_ids": ["p"]}',
    });
    expect(notList.issues.map((issue) => issue.path)).toEqual(['add_clauses']);
  });
});

describe('what the tools refuse, naming every field at once', () => {
  it('a whitespace-only query is never sent', async () => {
    const error = await refusal('search_catalog', { query: '   ' });
    expect(error.issues).toEqual([
      { path: 'query', message: 'must not be empty; give what the shopper wants, in plain words' },
    ]);
  });

  it('names each bad field in one pass, in words a model can act on', async () => {
    const error = await refusal('search_websites', {
      query: 'x'.repeat(201),
      limit: '5.5',
      category_ids: ['shoes', ' '],
      country: 'Narnia',
      contry: 'US',
    });
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'query',
      'limit',
      'category_ids.1',
      'country',
      '',
    ]);
    expect(error.message).toContain('query: must be at most 200 characters');
    expect(error.message).toContain(
      'limit: must be a whole number from 1 to 20, or null for the default (5)',
    );
    expect(error.message).toContain('category_ids.1: must not be empty');
    expect(error.message).toMatch(/country: must be one of US, GB, EU, .*RO, or null/);
    expect(error.message).toContain('unknown field contry; the fields are query, limit');
  });

  it('refuses what could mean two things instead of guessing', async () => {
    const limits = await refusal('search_catalog', { query: 'socks', limit: 'five' });
    expect(limits.issues.map((issue) => issue.path)).toEqual(['limit']);
    const replacement = await refusal('update_collection', {
      collection_id: 'col_1',
      replace_clauses: [{ clause_id: 'cl_1', product_ids: ['p'] }],
    });
    expect(replacement.issues).toContainEqual({
      path: 'replace_clauses.0.brand_ids',
      message: 'required: a list of ids of brands ([] for none)',
    });
    const nothing = await refusal('update_collection', { collection_id: 'col_1', name: null });
    expect(nothing.message).toContain('give at least one change');
    const emptyName = await refusal('update_collection', { collection_id: 'col_1', name: ' ' });
    expect(emptyName.issues).toEqual([
      {
        path: 'name',
        message: 'must not be empty; give the new name, or null to keep the current one',
      },
    ]);
  });

  it('refuses lone surrogates in the same pass', async () => {
    const error = await refusal('update_collection', {
      collection_id: 'col_\uD800',
      remove_clause_ids: ['cl_1', ''],
    });
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'collection_id',
      'remove_clause_ids.1',
    ]);
  });
});

describe('the JSON Schema frameworks send', () => {
  it.each(['input', 'output'] as const)('passes OpenAI strict mode with io %s', (io) => {
    for (const tool of Object.values(tools())) {
      const schema = z.toJSONSchema(tool.inputSchema, { io });
      expect(openAiStrictProblems(schema), tool.name).toEqual([]);
    }
  });
});
