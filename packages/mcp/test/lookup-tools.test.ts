import { CatalogClient } from '@catalogkit/core';
import {
  defineCatalogTool,
  type GetProductOutput,
  type LookupCatalogOutput,
} from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { finalizeBuyLinks } from '@catalogkit/links';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { type CatalogMcpHandlerOptions, createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { textOf } from './support/inputs.js';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

async function discovered(options: Parameters<typeof startEmulator>[0] = {}) {
  emulator = await startEmulator({ port: 0, ...options });
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
  });
  return { client, serviceTools: await client.catalog.tools() };
}

/** The handler mounted in Hono, with the SDK client connected to it over HTTP. */
async function hosted(options: Partial<CatalogMcpHandlerOptions>) {
  const mounted = await mountInHono(createCatalogMcpHandler(options));
  const { client } = await connectHttpClient(mounted.url);
  return {
    client,
    close: async () => {
      await client.close();
      await mounted.close();
    },
  };
}

describe('lookup_catalog and get_product on the MCP server', () => {
  it('lists them read-only with output schemas; calls by id and URL give references that resolve', async () => {
    const host = await hosted(await discovered());
    try {
      const { tools } = await host.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      for (const name of ['lookup_catalog', 'get_product']) {
        expect(byName.get(name)?.annotations?.readOnlyHint).toBe(true);
        expect(byName.get(name)?.outputSchema?.type).toBe('object');
      }
      const product = emulator.data.products.find(
        (p) => new Set(p.variants.map((v) => v.options[0]?.label)).size >= 2,
      );
      const other = emulator.data.products.find((p) => p !== product);
      const colour = product?.variants[0]?.options[0]?.label;
      const lookup = await host.client.callTool({
        name: 'lookup_catalog',
        arguments: { product_ids: [other?.id], urls: [product?.variants[0]?.url] },
      });
      const got = await host.client.callTool({
        name: 'get_product',
        arguments: { product_id: product?.id, selected: [{ name: 'Color', label: colour }] },
      });
      const lookupOutput = lookup.structuredContent as unknown as LookupCatalogOutput;
      const productOutput = got.structuredContent as unknown as GetProductOutput;
      expect(lookupOutput.response.products.map((p) => p.id)).toEqual([other?.id, product?.id]);
      expect(productOutput.response.product?.selected).toEqual([{ name: 'Color', label: colour }]);
      const text = `${textOf(lookup)}\n${textOf(got)}`;
      expect(text).not.toMatch(/https?:/i);
      const links = [
        ...lookupOutput.response.products.flatMap((p) => p.variants.map((v) => v.url)),
        ...(productOutput.response.product?.variants.map((v) => v.url) ?? []),
      ];
      const answer = (text.match(/\[\[buy:\d{9}\]\]/g) ?? []).join(' ');
      const final = finalizeBuyLinks(answer, [
        { toolName: 'lookup_catalog', output: lookupOutput },
        { toolName: 'get_product', output: productOutput },
      ]);
      expect(final.ok).toBe(true);
      expect(final.text).toBe(links.join(' '));
    } finally {
      await host.close();
    }
  });

  it('with the tools off in the emulator, it lists exactly today’s tools', async () => {
    const off = await discovered({ lookupTools: false });
    const fallback = await hosted(off);
    const today = await hosted({ client: off.client });
    try {
      const listed = (await fallback.client.listTools()).tools;
      expect(listed.map((tool) => tool.name)).toEqual([
        'search_catalog',
        'search_websites',
        'update_collection',
      ]);
      expect(listed).toEqual((await today.client.listTools()).tools);
    } finally {
      await fallback.close();
      await today.close();
    }
  });

  // Red team 37 F1: an app's own get_product was silently replaced by the built-in (listed
  // readOnlyHint with the built-in's output schema). Refused at construction, listed or not.
  it('refuses an application tool named get_product or lookup_catalog', async () => {
    const off = await discovered({ lookupTools: false });
    for (const name of ['get_product', 'lookup_catalog']) {
      const own = defineCatalogTool({
        name,
        description: () => 'Reads a product page.',
        inputSchema: z.strictObject({ url: z.string() }),
        mutates: false,
        execute: async ({ url }) => ({ request: { url }, response: {} }),
        toModelOutput: () => 'page',
      });
      for (const serviceTools of [undefined, off.serviceTools]) {
        expect(() =>
          createCatalogMcpHandler({ client: off.client, serviceTools, tools: [own] }),
        ).toThrow(new RegExp(`tools\\.0\\.name: ${name} is reserved`));
      }
    }
  });
});
