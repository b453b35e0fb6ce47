import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { RequestValidationError, ServerError } from '../src/errors/index.js';
import { createCatalogToolList, defineCatalogTool } from '../src/tools/index.js';

// A loopback service that always fails with a 500, counting the requests that reach it.
let server: Server;
let requests = 0;
let baseUrl = '';
const apiKey = 'sk_test_custom_tool_key';

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests += 1;
    response.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"down"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const clientOptions = () => ({ apiKey, baseUrl, mcpUrl: baseUrl, maxRetries: 0 });

/** A custom tool: looks up websites, and echoes the key in its view to prove redaction. */
const websiteCount = defineCatalogTool({
  name: 'count_websites',
  description: (names) => `Counts retailers; ${names.search_websites} lists them.`,
  inputSchema: z.strictObject({ query: z.string().min(1).describe('Retailer name.') }),
  mutates: false,
  async execute(input, { client, signal }) {
    const request = { query: input.query };
    const found = await client.websites.search(request, { signal });
    return { request, response: { count: found.websites.length } };
  },
  toModelOutput: (output) => `${output.response.count} websites (seen with ${apiKey})`,
});

/** A custom tool that changes data, so hosts must ask first. */
const archive = defineCatalogTool({
  name: 'archive_collection',
  description: () => 'Archives a collection.',
  inputSchema: z.strictObject({ collection_id: z.string().describe('The collection.') }),
  mutates: true,
  execute: async (input) => ({ request: input, response: { archived: input.collection_id } }),
  toModelOutput: (output) => `archived ${output.response.archived}`,
});

describe('custom tools', () => {
  it('accepts any name matching TOOL_NAME_PATTERN, and refuses others', () => {
    expect(websiteCount.name).toBe('count_websites');
    const spaced = defineCatalogTool({ ...archive, name: 'archive collection' });
    expect(() =>
      createCatalogToolList({ clientOptions: clientOptions(), tools: [spaced] }),
    ).toThrowError(
      /tools\.0\.name: "archive collection" for archive collection; tool names must match/,
    );
  });

  it('come after the built-ins, renamed, approved, and selected by their names', () => {
    const tools = createCatalogToolList({
      clientOptions: clientOptions(),
      tools: [websiteCount, archive],
      exclude: ['update_collection'],
      rename: (name) => `shop_${name}`,
    });
    expect(tools.map((tool) => [tool.name, tool.originalName, tool.needsApproval])).toEqual([
      ['shop_search_catalog', 'search_catalog', false],
      ['shop_search_websites', 'search_websites', false],
      ['shop_count_websites', 'count_websites', false],
      ['shop_archive_collection', 'archive_collection', true],
    ]);
    expect(tools[2]?.description).toBe('Counts retailers; shop_search_websites lists them.');
    const only = createCatalogToolList({
      clientOptions: clientOptions(),
      tools: [websiteCount, archive],
      include: ['archive_collection'],
    });
    expect(only.map((tool) => tool.name)).toEqual(['archive_collection']);
  });

  it('validate input before sending, redact the key and give the model error text', async () => {
    const [tool] = createCatalogToolList({
      clientOptions: clientOptions(),
      tools: [websiteCount],
      include: ['count_websites'],
    });
    if (tool?.originalName !== 'count_websites') throw new Error('count_websites missing');
    const before = requests;
    await expect(tool.execute({ query: '' })).rejects.toThrowError(RequestValidationError);
    expect(requests).toBe(before);

    expect(tool.toModelOutput({ request: { query: 'nike' }, response: { count: 2 } })).toBe(
      '2 websites (seen with [redacted])',
    );
    const failure = await tool.execute({ query: 'nike' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServerError);
    expect(requests).toBe(before + 1);
    const text = tool.errorToModelOutput(failure);
    expect(text).toMatch(/\S/);
    expect(text).not.toContain(apiKey);
  });

  it('refuse names that clash with a built-in or each other', () => {
    const clash = { ...archive, name: 'search_catalog' };
    expect(() =>
      createCatalogToolList({ clientOptions: clientOptions(), tools: [clash] }),
    ).toThrowError(/tools\.0\.name: search_catalog is already taken/);
    expect(() =>
      createCatalogToolList({ clientOptions: clientOptions(), tools: [archive, archive] }),
    ).toThrowError(/tools\.1\.name: archive_collection is already taken/);
  });
});
