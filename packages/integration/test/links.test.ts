import { createCatalogToolList, type SearchCatalogOutput } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import {
  buyLinkReference,
  finalizeBuyLinks,
  resolveBuyLinks,
  verifyBuyLinks,
} from '@catalogkit/links';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

async function search(
  apiKey: string | undefined,
  buyLinks: 'inline' | 'reference',
  query = 'rain jacket',
) {
  const [tool] = createCatalogToolList({
    clientOptions: {
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
      ...(apiKey ? { apiKey } : {}),
    },
    include: ['search_catalog'],
    buyLinks,
  });
  if (tool?.originalName !== 'search_catalog') throw new Error('search_catalog missing');
  const output = await tool.execute({
    query,
    limit: 10,
    cursor: null,
    placements: apiKey ? ['affiliate'] : null,
  });
  return { output, view: tool.toModelOutput(output), description: tool.description };
}

const linksOf = (output: SearchCatalogOutput) =>
  output.response.products.flatMap((product) =>
    product.variants.map((variant) => variant.url ?? ''),
  );

describe('buy links of real search results (emulator over HTTP)', () => {
  it('reference mode: the model reads one reference per offer and no link; each resolves to its link', async () => {
    for (const apiKey of [emulator.keys.valid, undefined]) {
      const { output, view, description } = await search(apiKey, 'reference');
      const links = linksOf(output);
      expect(links.length).toBeGreaterThan(10);
      for (const link of links) expect(view).not.toContain(link);
      const references = [...view.matchAll(/\[\[buy:\d{9}\]\]/g)].map((match) => match[0]);
      expect(references).toEqual(links.map(buyLinkReference));
      expect(description).toContain('[[buy:');
      const answer = references.map((reference, i) => `${i + 1}. ${reference}`).join('\n');
      const resolution = resolveBuyLinks(answer, [{ toolName: 'search_catalog', output }]);
      expect(resolution.text).toBe(links.map((link, i) => `${i + 1}. ${link}`).join('\n'));
      expect(resolution.unresolved).toEqual([]);
    }
  });

  it('gives the same references on every call, so a later turn can still resolve them', async () => {
    const first = await search(emulator.keys.valid, 'reference');
    const again = await search(emulator.keys.valid, 'reference');
    expect(again.view).toBe(first.view);
  });

  it('inline mode: every link is in the view byte for byte and verifies', async () => {
    for (const apiKey of [emulator.keys.valid, undefined]) {
      const { output, view } = await search(apiKey, 'inline');
      const links = linksOf(output);
      for (const link of links) expect(view).toContain(link);
      const check = verifyBuyLinks(view, [{ toolName: 'search_catalog', output }]);
      expect(check.ok).toBe(true);
      expect(check.verified.map((found) => found.url)).toEqual(links);
    }
  });

  it('reports each link of a real result corrupted by decoding, never verifying it', async () => {
    const { output } = await search(emulator.keys.valid, 'inline', 'trail running shoes');
    for (const link of linksOf(output)) {
      for (const corrupted of [
        link.replaceAll('%2F', '/'),
        link.slice(0, -2),
        link.toLowerCase(),
      ]) {
        const check = verifyBuyLinks(`Buy it: [here](${corrupted}).`, [
          { toolName: 'search_catalog', output },
        ]);
        expect(check.ok).toBe(false);
        expect(check.verified).toEqual([]);
      }
    }
  });

  it('reports a retailer home page of the catalog result: only buy links are verified', async () => {
    const { output } = await search(undefined, 'inline');
    const home = output.response.products[0]?.variants[0]?.seller?.links?.[0]?.url as string;
    expect(home).toMatch(/^https:\/\//);
    const final = finalizeBuyLinks(`Shop at ${home} or ${linksOf(output)[0]}`, [
      { toolName: 'search_catalog', output },
    ]);
    expect(final.ok).toBe(false);
    expect(final.verified.map((found) => found.url)).toEqual([linksOf(output)[0]]);
    expect(final.issues.map((issue) => issue.url)).toEqual([home]);
  });
});

describe('buy links against hostile answers around real search results (emulator over HTTP)', () => {
  it('never verifies a real link behind another host, scheme or encoding, and keeps ok false', async () => {
    const { output } = await search(emulator.keys.valid, 'inline');
    const sources = [{ toolName: 'search_catalog', output }];
    for (const link of linksOf(output)) {
      for (const wrapped of [
        `[Buy](//evil.example/${link})`,
        `[Buy](javascript:alert(1)//${link})`,
        `[Buy](https:\\\\evil.example\\${link})`,
        `<a href="//evil.example/${link}">Buy</a>`,
      ]) {
        const final = finalizeBuyLinks(wrapped, sources);
        expect(final.ok, wrapped).toBe(false);
        expect(verifyBuyLinks(wrapped, sources).verified, wrapped).toEqual([]);
      }
      // GFM's rules (the parse's, as remark-gfm's) link the decoded `https://evil.example/`
      // before the true buy link, and a `www.` word whole: each is an issue, so ok is false,
      // and only the true buy link itself can be verified.
      for (const prefix of ['https&#58;//evil.example/', 'www.evil.example/']) {
        const decoded = verifyBuyLinks(`Buy: ${prefix}${link}`, sources);
        expect(decoded.ok, prefix).toBe(false);
        for (const found of decoded.verified) expect(found.url).toBe(link);
        for (const issue of decoded.issues)
          expect(issue.url).toMatch(/^https?:\/\/(www\.)?evil\.example\//);
      }
    }
  });

  it("a web_fetch tool's catalog-shaped output never makes its link verified", async () => {
    const { output } = await search(emulator.keys.valid, 'reference');
    const evil = 'https://evil.example/checkout';
    const fetched = {
      toolName: 'web_fetch',
      output: { products: [{ variants: [{ url: evil }] }] },
    };
    const answer = `Buy: ${evil} or ${buyLinkReference(evil)}`;
    const final = finalizeBuyLinks(answer, [{ toolName: 'search_catalog', output }, fetched]);
    expect(final.ok).toBe(false);
    expect(final.resolved).toEqual([]);
    expect(final.issues.map((issue) => issue.url)).toEqual([evil]);
  });
});
