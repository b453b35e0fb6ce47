import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createCatalogMcpHandler, defineCatalogTool } from '../src/index.js';
import { connectHttpClient, type MountedHandler, mountInHono } from './support/http-host.js';
import { textOf } from './support/inputs.js';

let emulator: RunningEmulator;
let mounted: MountedHandler;

const pinProduct = defineCatalogTool({
  name: 'pin_product',
  description: () => 'Pin a product for the shopper.',
  inputSchema: z.strictObject({ product_id: z.string(), note: z.string().nullable() }),
  mutates: false,
  execute: async (input) => ({ request: input, response: { pinned: input.product_id } }),
  toModelOutput: (output) => `Pinned ${output.response.pinned}`,
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  mounted = await mountInHono(
    createCatalogMcpHandler({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
      tools: [pinProduct],
      // The HTTP client cannot confirm: the operator accepts unconfirmed changes.
      confirmChanges: 'annotations-only',
    }),
  );
});

afterAll(async () => {
  await mounted?.close();
  await emulator?.close();
});

/** The tools as a host lists them, over HTTP from the mounted handler. */
async function listedTools(): Promise<Record<string, Tool>> {
  const { client } = await connectHttpClient(mounted.url);
  try {
    const { tools } = await client.listTools();
    return Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  } finally {
    await client.close();
  }
}

/**
 * What a host that checks arguments against the advertised schema before calling
 * (`@langchain/mcp-adapters`) decides, here with Ajv, the validator the SDK itself uses.
 */
function hostAccepts(tool: Tool | undefined, args: unknown): boolean {
  if (!tool) throw new Error('tool not listed');
  return new AjvJsonSchemaValidator().getValidator(tool.inputSchema)(args).valid;
}

describe('the input schemas MCP hosts see', () => {
  it('advertise optional fields as optional: a host that validates accepts { query } alone', async () => {
    const tools = await listedTools();
    expect(hostAccepts(tools.search_catalog, { query: 'rain jacket' })).toBe(true);
    expect(hostAccepts(tools.search_websites, { query: 'nike' })).toBe(true);
    expect(
      hostAccepts(tools.update_collection, { collection_id: 'col_summer', name: 'Beach' }),
    ).toBe(true);
    // A new clause's selectors may be left out (the tool makes them []); a replacement's may not.
    expect(
      hostAccepts(tools.update_collection, {
        collection_id: 'col_summer',
        add_clauses: [{ product_ids: ['prod_003ia'] }],
      }),
    ).toBe(true);
    expect(
      hostAccepts(tools.update_collection, {
        collection_id: 'col_summer',
        replace_clauses: [{ clause_id: 'cl_0001', product_ids: ['prod_003ia'] }],
      }),
    ).toBe(false);
    // Still checked: the required field, the types, unknown fields.
    expect(hostAccepts(tools.search_catalog, {})).toBe(false);
    expect(hostAccepts(tools.search_catalog, { query: 'rain jacket', limit: 'many' })).toBe(false);
    expect(hostAccepts(tools.search_catalog, { query: 'rain jacket', colour: 'red' })).toBe(false);
    expect(tools.search_catalog?.inputSchema.required).toEqual(['query']);
    expect(tools.update_collection?.inputSchema.required).toEqual(['collection_id']);
  });

  it('describe a left-out field, not null, where null is no longer shown', async () => {
    const { search_catalog: catalog } = await listedTools();
    expect(catalog?.inputSchema.properties?.limit).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 20,
      description: 'How many products to return, 1 to 20; leave out for the default.',
    });
    expect(JSON.stringify(catalog?.inputSchema)).not.toMatch(/"null"|\bnull (for|to)\b/);
  });

  it('the server runs { query } alone, and still takes null for a field left out', async () => {
    const { client } = await connectHttpClient(mounted.url);
    try {
      const alone = await client.callTool({
        name: 'search_catalog',
        arguments: { query: 'rain jacket' },
      });
      expect(alone.isError).toBeFalsy();
      expect(textOf(alone)).toMatch(/products for "rain jacket"/);
      const withNull = await client.callTool({
        name: 'search_catalog',
        arguments: { query: 'rain jacket', limit: null, cursor: null, placements: null },
      });
      expect(withNull.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('keep a tool of the application as it wrote it (nothing fills in what it leaves out)', async () => {
    const { pin_product: pin } = await listedTools();
    expect(pin?.inputSchema.required).toEqual(['product_id', 'note']);
  });

  it('give every tool a top-level human title', async () => {
    const tools = await listedTools();
    expect(Object.values(tools).map((tool) => [tool.name, tool.title])).toEqual([
      ['search_catalog', 'Search the product catalog'],
      ['search_websites', 'Find retailers and their commission rates'],
      ['update_collection', "Change one of the user's collections"],
      ['pin_product', 'Pin product'],
    ]);
  });
});

describe('list arguments as the MCP Inspector CLI sends them', () => {
  it('advertises lists as type array, the form the Inspector CLI parses as JSON itself', async () => {
    const tools = await listedTools();
    const typeOf = (tool: Tool | undefined, field: string) =>
      (tool?.inputSchema.properties?.[field] as { type?: unknown } | undefined)?.type;
    expect(typeOf(tools.search_catalog, 'placements')).toBe('array');
    expect(typeOf(tools.search_websites, 'category_ids')).toBe('array');
    for (const field of ['add_clauses', 'replace_clauses', 'remove_clause_ids']) {
      expect(typeOf(tools.update_collection, field)).toBe('array');
    }
    expect(typeOf(tools.search_catalog, 'limit')).toBe('integer');
  });

  it('takes lists sent as JSON text: placements and add_clauses', async () => {
    const { client } = await connectHttpClient(mounted.url);
    try {
      const catalog = await client.callTool({
        name: 'search_catalog',
        arguments: { query: 'trail running shoes', limit: '2', placements: '["affiliate"]' },
      });
      expect(catalog.isError).toBeFalsy();
      expect(catalog.structuredContent).toMatchObject({
        request: { placements: ['affiliate'], pagination: { limit: 2 } },
      });
      const before = emulator.state.collections.get('col_gifts')?.clauses.length ?? 0;
      const added = await client.callTool({
        name: 'update_collection',
        arguments: {
          collection_id: 'col_gifts',
          add_clauses: '[{"product_ids": ["prod_003ia"]}]',
        },
      });
      expect(added.isError).toBeFalsy();
      expect(emulator.state.collections.get('col_gifts')?.clauses.length).toBe(before + 1);
      const refused = await client.callTool({
        name: 'search_catalog',
        arguments: { query: 'socks', placements: '["sponsored"]' },
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('placements.0: must be one of affiliate');
    } finally {
      await client.close();
    }
  });
});
