/*
 * Links an answer may give besides buy links: the retailer URLs the service gave in
 * search_websites results (issue 36: they were reported as foreign links), and the agent's own
 * (`allowedLinks`), by origin and path, nothing wider.
 */
import { createCatalogTools } from '@catalogkit/langchain';
import { describe, expect, it } from 'vitest';
import { assertBuyLinksVerified, checkAgent, startCatalogService } from '../src/index.js';

describe('links allowed besides buy links', () => {
  it('allows the retailer URLs search_websites gave, exactly, and no other page of theirs', async () => {
    const service = await startCatalogService();
    try {
      const tools = createCatalogTools({ clientOptions: service.clientOptions });
      await tools.find((tool) => tool.name === 'search_websites')!.invoke({ query: 'running' });
      const [site] = service.catalogUrls();
      expect(site).toMatch(/^https:\/\//);
      assertBuyLinksVerified(`Shop at ${site} today.`, service);
      const page = `${new URL(site!).origin}/sale/shoes`;
      expect(() => assertBuyLinksVerified(`Shop at ${page} today.`, service)).toThrow(
        `"${page}" is not a buy link the catalog gave`,
      );
    } finally {
      await service.close();
    }
  });

  it('allows an origin, or a path and what is under it, from allowedLinks', () => {
    const allowedLinks = ['https://help.shop.example', 'https://shop.example/faq'];
    const ok =
      'See https://help.shop.example/a/b and https://shop.example/faq/returns or https://shop.example/faq';
    assertBuyLinksVerified(ok, [], { allowedLinks });
    for (const link of [
      'https://shop.example/faqs',
      'https://shop.example/',
      'http://help.shop.example/a',
    ]) {
      expect(() => assertBuyLinksVerified(`See ${link}`, [], { allowedLinks })).toThrow(
        `"${link}" is not a buy link the catalog gave`,
      );
    }
  });

  it('refuses a wrong allowedLinks entry by name, before any scenario runs', async () => {
    expect(() => assertBuyLinksVerified('x', [], { allowedLinks: ['help.shop.example'] })).toThrow(
      'allowedLinks[0] must be an http: or https: URL such as https://help.example.com, got "help.shop.example"',
    );
    let ran = false;
    const agent = async () => {
      ran = true;
      return { text: '' };
    };
    await expect(checkAgent(agent, { allowedLinks: ['javascript:alert(1)'] })).rejects.toThrow(
      TypeError,
    );
    expect(ran).toBe(false);
  });
});
