import type { SearchCatalogOutput } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { finalizeBuyLinks } from '@catalogkit/links';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogMcpHandlerOptions, createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { searchCatalog, textOf } from './support/inputs.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

/** search_catalog through the handler mounted in Hono, called by the SDK client over HTTP. */
async function searchThrough(options: Partial<CatalogMcpHandlerOptions>) {
  const mounted = await mountInHono(
    createCatalogMcpHandler({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
      defaults: { placements: ['affiliate'] },
      ...options,
    }),
  );
  const { client } = await connectHttpClient(mounted.url);
  try {
    const { tools } = await client.listTools();
    const result = await client.callTool({
      name: 'search_catalog',
      arguments: searchCatalog('trail running shoes', { limit: 3 }),
    });
    const output = result.structuredContent as unknown as SearchCatalogOutput;
    const description = tools.find((tool) => tool.name === 'search_catalog')?.description ?? '';
    return { text: textOf(result), description, output };
  } finally {
    await client.close();
    await mounted.close();
  }
}

describe('buy links of the MCP server', () => {
  it('by default: the model reads references and no http URL; the host resolves them from structuredContent', async () => {
    const { text, description, output } = await searchThrough({});
    expect(text).toMatch(/\[\[buy:\d{9}\]\]/);
    expect(text).not.toMatch(/https?:/i);
    expect(description).toContain('[[buy:123456789]]');
    const link = output.response.products[0]?.variants[0]?.url;
    expect(link).toMatch(/^https:\/\//);

    // What a model writes from that text, resolved by the host before the shopper sees it.
    const reference = /\[\[buy:\d+\]\]/.exec(text)?.[0];
    const answer = `The best pick: [Buy it](${reference}).`;
    const final = finalizeBuyLinks(answer, [{ toolName: 'search_catalog', output }]);
    expect(final.text).toBe(`The best pick: [Buy it](${link}).`);
    expect(final.ok).toBe(true);
  });

  it("buyLinks: 'inline' (opt-in, for hosts that show text as written): the links byte for byte", async () => {
    const { text, output } = await searchThrough({ buyLinks: 'inline' });
    const links = output.response.products.flatMap((product) =>
      product.variants.map((variant) => variant.url ?? ''),
    );
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(text).toContain(link);
    expect(text).not.toMatch(/\[\[buy:/);
  });

  it('refuses a buyLinks that is neither, naming the field', () => {
    const options = { buyLinks: 'none' } as unknown as CatalogMcpHandlerOptions;
    expect(() => createCatalogMcpHandler(options)).toThrowError(
      /buyLinks: must be inline or reference/,
    );
  });
});
