import { CatalogClient } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(() => emulator?.close());

const escaped = (url: string) => url.replaceAll('&', '&amp;');

describe('the links README: a stored answer shown again with fresh links', () => {
  it('links the offer the service gives now, and a removed product as text', async () => {
    // Stored on the anonymous tier (retailer links); shown by the keyed app: every link differs.
    delete process.env.CATALOG_API_KEY;
    const anonymous = new CatalogClient({ mcpUrl: emulator.mcpUrl });
    const request = { query: 'jacket' };
    const { result, tier } = await anonymous.catalog.search(request);
    const [kept, removed] = result.products;
    const keptLink = kept!.variants[0]!.url!;
    const removedLink = removed!.variants[0]!.url!;
    const products = [kept!, { ...removed!, id: 'prod_removed_0000' }];
    const toolResults = [
      { toolName: 'search_catalog', output: { request, response: { ...result, products }, tier } },
    ];
    const text = `[Buy it](${buyLinkReference(keptLink)}) or ${buyLinkReference(removedLink)}`;

    // The app's env, read when the flow is imported.
    Object.assign(process.env, {
      CATALOG_API_KEY: emulator.keys.valid,
      CATALOG_MCP_URL: emulator.mcpUrl,
    });
    const { showStoredAnswer } = await import('../flows/stored-answer.js');
    const html = await showStoredAnswer({ text, toolResults });

    const keyed = new CatalogClient({ apiKey: emulator.keys.valid, mcpUrl: emulator.mcpUrl });
    const now = (await keyed.catalog.lookup({ ids: [kept!.id] })).result.products[0]!;
    const fresh = now.variants.find((v) => v.id === kept!.variants[0]!.id)!.url!;
    expect(fresh).not.toBe(keptLink);
    expect(html).toContain(`href="${escaped(fresh)}"`);
    expect(html).toContain('(no longer available)');
    expect(html).not.toContain(escaped(keptLink));
    expect(html).not.toContain(escaped(removedLink));
  });
});
