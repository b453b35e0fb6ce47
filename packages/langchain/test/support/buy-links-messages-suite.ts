import type { SearchCatalogOutput } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/links';
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import {
  createCatalogTools,
  finalizeAIMessageBuyLinks,
  resolveBuyLinkChunks,
  toolArtifactsOf,
} from '../../src/index.js';
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
      expect(final.unrepaired.map((issue) => issue.url)).toEqual([evil]);
    });

    it('finalizeAIMessageBuyLinks repairs an inline answer and keeps text blocks', async () => {
      const { message, links } = await searched('inline');
      const answer = new AIMessage({
        content: [
          { type: 'text', text: `Buy: ${links[0]!.toLowerCase()}` },
          { type: 'text', text: ` or ${links[1]!.slice(0, -1)}` },
        ],
      });
      const history: BaseMessage[] = [new HumanMessage('jackets'), message, answer];
      const final = finalizeAIMessageBuyLinks(history);
      expect(final.text).toBe(`Buy: ${links[0]} or ${links[1]}`);
      expect(final.message.content).toEqual([
        { type: 'text', text: `Buy: ${links[0]}` },
        { type: 'text', text: ` or ${links[1]}` },
      ]);
      expect(final.repaired).toHaveLength(2);
      expect(final.ok).toBe(true);
      // The message in the history is not changed.
      expect(JSON.stringify(answer.content)).not.toContain(links[0]);
    });

    it('resolveBuyLinkChunks resolves references across AIMessageChunks of a plain stream', async () => {
      const { message, links, view } = await searched('reference');
      const reference = [...view.matchAll(/\[\[buy:\d+\]\]/g)][0]![0];
      expect(reference).toBe(buyLinkReference(links[0]!));
      const text = `Here: ${reference}.`;
      async function* chunks() {
        for (const piece of [text.slice(0, 9), text.slice(9, 14), text.slice(14)]) {
          yield new AIMessageChunk({ content: piece, id: 'run-1' });
        }
      }
      const unresolved: string[] = [];
      const out: string[] = [];
      for await (const chunk of resolveBuyLinkChunks(chunks(), {
        toolOutputs: toolArtifactsOf([message]),
        onUnresolved: (issue) => unresolved.push(issue.reference),
      })) {
        expect(chunk).toBeInstanceOf(AIMessageChunk);
        out.push(String(chunk.content));
      }
      expect(out.join('')).toBe(`Here: ${links[0]}.`);
      expect(unresolved).toEqual([]);
    });

    it('resolveBuyLinkChunks with repair repairs a miscopied link split across chunks', async () => {
      const { message, links } = await searched('inline');
      const text = `Buy: ${links[0]!.toLowerCase()} today`;
      async function* chunks() {
        for (let i = 0; i < text.length; i += 17) {
          yield new AIMessageChunk({ content: text.slice(i, i + 17), id: 'run-2' });
        }
      }
      const out: string[] = [];
      for await (const chunk of resolveBuyLinkChunks(chunks(), {
        toolOutputs: toolArtifactsOf([message]),
        repair: true,
      })) {
        out.push(String(chunk.content));
      }
      expect(out.join('')).toBe(`Buy: ${links[0]} today`);
    });
  });
}
