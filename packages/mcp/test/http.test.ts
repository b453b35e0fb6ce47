import { CatalogClient } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneShape, SHAPE_INPUTS } from '../../core/test/support/one-shape.js';
import { openAiStrictProblems } from '../../testing/src/stand-ins/schema-rules.js';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, type MountedHandler, mountInHono } from './support/http-host.js';
import { searchCatalog, searchWebsites, textOf, updateCollection } from './support/inputs.js';
import { type KeyEchoService, startKeyEchoService } from './support/key-echo-service.js';

let emulator: RunningEmulator;
let mounted: MountedHandler;
let client: Client;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const handle = createCatalogMcpHandler({
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
    defaults: { placements: ['affiliate'] },
    // This client cannot confirm (no session over stateless HTTP): the operator accepts
    // unconfirmed changes, so the update's own answers are tested here.
    confirmChanges: 'annotations-only',
  });
  mounted = await mountInHono(handle);
  ({ client } = await connectHttpClient(mounted.url));
  // Lets the client check every structuredContent against the listed outputSchema.
  await client.listTools();
});

afterAll(async () => {
  await client?.close();
  await mounted?.close();
  await emulator?.close();
});

describe('createCatalogMcpHandler mounted in Hono, with the SDK client over Streamable HTTP', () => {
  it('lists the three tools with input schemas, output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
    ]);
    const [catalog, websites, update] = tools;
    expect(catalog?.annotations).toMatchObject({ readOnlyHint: true });
    expect(websites?.annotations).toMatchObject({ readOnlyHint: true });
    expect(update?.annotations).toMatchObject({
      readOnlyHint: false,
      // It removes, replaces and renames: MCP keeps false for updates that only add.
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(update?.description).toContain('search_catalog');
    for (const tool of tools) {
      // MCP has no strict mode: optional fields are advertised as optional (so hosts that
      // check arguments accept them left out, test/host-schemas.test.ts), and that is the
      // only way the schemas differ from OpenAI's strict shape.
      for (const violation of openAiStrictProblems(tool.inputSchema)) {
        expect(violation).toMatch(/: must be in required$/);
      }
      expect(tool.outputSchema?.type).toBe('object');
    }
    // The one shape of every tool's result: what was asked, what came back (and the tier).
    expect(catalog?.outputSchema?.required).toEqual(['request', 'response', 'tier']);
    expect(websites?.outputSchema?.required).toEqual(['request', 'response']);
    expect(update?.outputSchema?.required).toEqual(['request', 'response']);
  });

  it('answers with compact text as content and the full result as structuredContent', async () => {
    const result = await client.callTool({
      name: 'search_catalog',
      arguments: searchCatalog('trail running shoes'),
    });
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as {
      tier: string;
      request: { placements?: string[] };
      response: { products: { id: string; variants: { url: string }[] }[] };
    };
    expect(output.tier).toBe('token');
    expect(output.request.placements).toEqual(['affiliate']);
    expect(output.response.products).toHaveLength(3);
    const text = textOf(result);
    // Buy links as references (the default; the links are in structuredContent), in a view
    // much smaller than the full result.
    for (const variant of output.response.products.flatMap((product) => product.variants)) {
      expect(text).toContain(buyLinkReference(variant.url));
      expect(text).not.toContain(variant.url);
    }
    expect(text.length).toBeLessThan(JSON.stringify(output.response).length / 2);
  });

  it('gives every tool’s structuredContent the one output shape, { request, response, tier? }', async () => {
    // An emulator and a handler of their own: no defaults, and an update nobody else counts.
    const own = await startEmulator({ port: 0 });
    const clientOptions = { apiKey: own.keys.valid, baseUrl: own.baseUrl, mcpUrl: own.mcpUrl };
    const host = await mountInHono(
      createCatalogMcpHandler({ clientOptions, confirmChanges: 'annotations-only' }),
    );
    const { client: shapeClient } = await connectHttpClient(host.url);
    try {
      // Listed first, so the SDK client checks each structuredContent against its outputSchema.
      await shapeClient.listTools();
      const structured = async (name: keyof typeof SHAPE_INPUTS) => {
        const result = await shapeClient.callTool({ name, arguments: SHAPE_INPUTS[name] });
        expect(result.isError).toBeFalsy();
        return result.structuredContent;
      };
      await expectOneShape(
        {
          search_catalog: await structured('search_catalog'),
          search_websites: await structured('search_websites'),
          update_collection: await structured('update_collection'),
        },
        new CatalogClient(clientOptions),
        own.state.collections.get('col_summer'),
      );
    } finally {
      await shapeClient.close();
      await host.close();
      await own.close();
    }
  });

  it('updates the collection with ids the searches gave', async () => {
    const catalog = await client.callTool({
      name: 'search_catalog',
      arguments: searchCatalog('rain jacket', { limit: 1 }),
    });
    const websites = await client.callTool({
      name: 'search_websites',
      arguments: searchWebsites('outdoor', { country: 'GB' }),
    });
    expect(websites.structuredContent).toMatchObject({
      request: { query: 'outdoor', limit: 2, country: 'GB' },
    });
    const productId = /\| (prod_\w+)/.exec(textOf(catalog))?.[1];
    const websiteId = /website_id (\w+)/.exec(textOf(websites))?.[1];
    expect(productId).toBeDefined();
    expect(websiteId).toBeDefined();
    const clause = {
      brand_ids: [],
      website_ids: [websiteId],
      category_ids: [],
      product_ids: [productId],
    };
    const updated = await client.callTool({
      name: 'update_collection',
      arguments: updateCollection('col_summer', { add_clauses: [clause] }),
    });
    expect(updated.isError).toBeFalsy();
    const added = emulator.state.collections.get('col_summer')?.clauses.at(-1);
    expect(added).toMatchObject({ product_ids: [productId], website_ids: [websiteId] });
    expect(textOf(updated)).toContain(`clause_id ${added?.clause_id}`);
    expect(updated.structuredContent).toMatchObject({
      request: { collectionId: 'col_summer' },
      response: { collection_id: 'col_summer' },
    });
  });

  it('returns the model-facing error texts as isError results', async () => {
    const tooLong = await client.callTool({
      name: 'search_websites',
      arguments: searchWebsites('x'.repeat(201)),
    });
    expect(tooLong).toMatchObject({ isError: true });
    expect(textOf(tooLong)).toBe(
      'Invalid arguments: query: must be at most 200 characters. Fix these fields and call the tool again.',
    );
    const wrongType = await client.callTool({
      name: 'search_websites',
      arguments: searchWebsites('outdoor', { limit: 'ten' }),
    });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/^Invalid arguments: limit: .+ Fix these fields/);
    const unknown = await client.callTool({
      name: 'update_collection',
      arguments: updateCollection('col_nope', { name: 'X' }),
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe(
      'Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
    );
  });

  it('answers a call of an unknown tool with a protocol error', async () => {
    await expect(client.callTool({ name: 'search_everything', arguments: {} })).rejects.toThrow(
      /Tool search_everything not found/,
    );
  });

  it('tells the model when the daily rate limit resets', async () => {
    const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
    const handle = createCatalogMcpHandler({
      clientOptions: {
        apiKey: limited.keys.valid,
        baseUrl: limited.baseUrl,
        mcpUrl: limited.mcpUrl,
      },
    });
    const host = await mountInHono(handle);
    const { client: limitedClient } = await connectHttpClient(host.url);
    try {
      const call = { name: 'search_catalog', arguments: searchCatalog('rain jacket') };
      expect((await limitedClient.callTool(call)).isError).toBeFalsy();
      const second = await limitedClient.callTool(call);
      expect(second.isError).toBe(true);
      expect(textOf(second)).toMatch(
        /^Rate limit of the catalog service reached \(limits are daily, per UTC day\)\. It resets at \d{4}-\d\d-\d\dT00:00Z/,
      );
    } finally {
      await limitedClient.close();
      await host.close();
      await limited.close();
    }
  });

  it('answers in Server-Sent Events when asked to', async () => {
    const host = await mountInHono(
      createCatalogMcpHandler({
        sse: true,
        clientOptions: {
          apiKey: emulator.keys.valid,
          baseUrl: emulator.baseUrl,
          mcpUrl: emulator.mcpUrl,
        },
      }),
    );
    const { client: sseClient, received } = await connectHttpClient(host.url);
    try {
      const result = await sseClient.callTool({
        name: 'search_websites',
        arguments: searchWebsites('outdoor'),
      });
      expect(textOf(result)).toMatch(/^2 websites for "outdoor"/);
      expect(received.at(-1)).toMatch(/^(id: .*\n)?event: message\ndata: /m);
    } finally {
      await sseClient.close();
      await host.close();
    }
  });

  it('serves concurrent calls independently (a fresh server per request)', async () => {
    const queries = ['rain jacket', 'yoga mat', 'espresso machine', 'trail running shoes'];
    const results = await Promise.all(
      queries.map((query) =>
        client.callTool({ name: 'search_catalog', arguments: searchCatalog(query, { limit: 1 }) }),
      ),
    );
    results.forEach((result, i) => {
      expect(textOf(result)).toMatch(new RegExp(`^1 of \\d+ products for "${queries[i]}"`));
    });
  });

  it('applies the shared options: renamed tools keep their schemas and annotations', async () => {
    const host = await mountInHono(
      createCatalogMcpHandler({
        clientOptions: {
          apiKey: emulator.keys.valid,
          baseUrl: emulator.baseUrl,
          mcpUrl: emulator.mcpUrl,
        },
        exclude: ['update_collection'],
        rename: (name) => `shop_${name}`,
      }),
    );
    const { client: renamedClient } = await connectHttpClient(host.url);
    try {
      const { tools } = await renamedClient.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'shop_search_catalog',
        'shop_search_websites',
      ]);
      expect(tools[0]?.description).toContain('shop_search_websites');
      expect(tools[1]?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools[1]?.outputSchema?.required).toEqual(['request', 'response']);
      const result = await renamedClient.callTool({
        name: 'shop_search_websites',
        arguments: searchWebsites('outdoor'),
      });
      expect(result.structuredContent).toMatchObject({ request: { query: 'outdoor' } });
      await expect(
        renamedClient.callTool({ name: 'search_websites', arguments: searchWebsites('outdoor') }),
      ).rejects.toThrow(/Tool search_websites not found/);
    } finally {
      await renamedClient.close();
      await host.close();
    }
  });

  it('refuses GET and DELETE: a stateless server has no session stream', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(mounted.url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});

describe('the API key', () => {
  const secret = 'ck_live_echo_7f3a9c1e5b';
  const configs = {
    clientOptions: (service: KeyEchoService) => ({
      clientOptions: { apiKey: secret, baseUrl: service.baseUrl, mcpUrl: service.mcpUrl },
    }),
    client: (service: KeyEchoService) => ({
      client: new CatalogClient({
        apiKey: secret,
        baseUrl: service.baseUrl,
        mcpUrl: service.mcpUrl,
      }),
    }),
  };

  it.each(Object.keys(configs) as (keyof typeof configs)[])(
    'never reaches the host, even from a service that echoes it everywhere (key given as %s)',
    async (config) => {
      const service = await startKeyEchoService();
      const host = await mountInHono(
        createCatalogMcpHandler({
          ...configs[config](service),
          confirmChanges: 'annotations-only',
        }),
      );
      const { client: echoClient, received } = await connectHttpClient(host.url);
      try {
        await echoClient.listTools();
        const catalog = await echoClient.callTool({
          name: 'search_catalog',
          arguments: searchCatalog('shoes'),
        });
        const websites = await echoClient.callTool({
          name: 'search_websites',
          arguments: searchWebsites('shop'),
        });
        const update = await echoClient.callTool({
          name: 'update_collection',
          arguments: updateCollection('col_1', { name: 'X' }),
        });
        // The service did echo it: the places it went now say [redacted].
        expect(JSON.stringify(catalog.structuredContent)).toContain('Echo shoe for [redacted]');
        expect(textOf(websites)).toContain('Shop of [redacted]');
        expect(JSON.stringify(websites.structuredContent)).toContain('KEY [redacted]');
        expect(update.isError).toBe(true);
        expect(textOf(update)).toContain('[redacted]');
        expect(received.length).toBeGreaterThan(3);
        for (const body of received) expect(body.toLowerCase()).not.toContain(secret.toLowerCase());
      } finally {
        await echoClient.close();
        await host.close();
        await service.close();
      }
    },
  );
});
