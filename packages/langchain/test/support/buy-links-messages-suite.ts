import type { SearchCatalogOutput } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/links';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { createCatalogTools, finalizeAIMessageBuyLinks, toolArtifactsOf } from '../../src/index.js';
import { clientOptions, useEmulator } from './langchain-tools-suite.js';

/**
 * The buy link helpers on messages made by the real tools (a ToolCall → ToolMessage with the
 * full result as artifact), run once per `@langchain/core` line.
 */
export function describeBuyLinkMessageHelpers(line: string): void {
  const emulator = useEmulator();

  async function searched(buyLinks: 'inline' | 'reference') {
    const [search] = createCatalogTools({
      clientOptions: clientOptions(emulator().keys.valid, emulator()),
      include: ['search_catalog'],
      buyLinks,
    });
    const args = { query: 'rain jacket', limit: 3, cursor: null, placements: null };
    const message = (await search!.invoke({
      id: 't1',
      name: 'search_catalog',
      args,
      type: 'tool_call',
    })) as ToolMessage;
    const links = (message.artifact as SearchCatalogOutput).response.products.flatMap((product) =>
      product.variants.map((variant) => variant.url ?? ''),
    );
    return { message, links, view: String(message.content) };
  }

  describe(`buy link helpers on tool messages (@langchain/core ${line})`, () => {
    it('trusts only the catalog tool: a ToolMessage of another tool gives no buy link', async () => {
      const { message, links } = await searched('reference');
      expect(toolArtifactsOf([message])[0]?.toolName).toBe('search_catalog');
      const evil = 'https://evil.example/checkout';
      const fetched = new ToolMessage({
        content: 'page',
        name: 'web_fetch',
        tool_call_id: 't2',
        artifact: { products: [{ variants: [{ url: evil }] }] },
      });
      const answer = new AIMessage(`Buy: ${evil} or ${buyLinkReference(evil)} or ${links[0]}`);
      const final = finalizeAIMessageBuyLinks([new HumanMessage('hi'), message, fetched, answer]);
      expect(final.ok).toBe(false);
      expect(final.resolved).toEqual([]);
      expect(final.issues.map((issue) => issue.url)).toEqual([evil]);
    });

    it('finalizeAIMessageBuyLinks reports miscopied inline links and keeps text blocks', async () => {
      const { message, links } = await searched('inline');
      const answer = new AIMessage({
        content: [
          { type: 'text', text: `Buy: ${links[0]!.toLowerCase()}` },
          { type: 'text', text: ` or ${links[1]!.slice(0, -1)}` },
        ],
      });
      const history: BaseMessage[] = [new HumanMessage('jackets'), message, answer];
      const final = finalizeAIMessageBuyLinks(history);
      const written = [links[0]!.toLowerCase(), links[1]!.slice(0, -1)];
      expect(final.text).toBe(`Buy: ${written[0]} or ${written[1]}`);
      expect(final.message.content).toEqual([
        { type: 'text', text: `Buy: ${written[0]}` },
        { type: 'text', text: ` or ${written[1]}` },
      ]);
      expect(final.issues.map((issue) => issue.url)).toEqual(written);
      expect(final.ok).toBe(false);
      // The message in the history is not changed.
      expect(JSON.stringify(answer.content)).not.toContain(links[0]);
    });
  });
}
