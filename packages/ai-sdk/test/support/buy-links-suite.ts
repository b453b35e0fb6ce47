import type { SearchCatalogOutput } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { buyLinkReference } from '@catalogkit/links';
import type { ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AiSdkCatalogToolsOptions,
  createCatalogTools,
  finalizeResultBuyLinks,
  finalizeUIMessageBuyLinks,
  type ResultWithSteps,
  resolveBuyLinksTransform,
  type UIMessageLike,
} from '../../src/index.js';

/** The search the scripted shopper makes before it answers. */
export const SEARCH = {
  query: 'trail running shoes',
  limit: 3,
  cursor: null,
  placements: ['affiliate'],
};

/** A streamed run, seen through what AI SDK 5, 6 and 7 share. */
export interface StreamedRun {
  textStream: AsyncIterable<string>;
  text: PromiseLike<string>;
  steps: PromiseLike<ResultWithSteps['steps']>;
  /** The assistant UI message `toUIMessageStream()` builds (read with `readUIMessageStream`). */
  uiMessage(): Promise<UIMessageLike & { parts: Array<{ type: string; text?: string }> }>;
}

/**
 * One major version of `ai` for the buy link helpers: a model that calls `search_catalog`
 * with {@link SEARCH} (tool call id `call_0_0`), then answers from the text it read.
 */
export interface BuyLinksHarness {
  major: 5 | 6 | 7;
  /** `generateText`; the answer is `answer(the search_catalog text the model read)`. */
  generate(
    tools: ToolSet,
    answer: (view: string) => string,
  ): Promise<{ result: ResultWithSteps; view: string }>;
  /** `streamText`, streaming `chunks(view)` as text deltas, with `transform` when given. */
  stream(tools: ToolSet, chunks: (view: string) => string[], transform?: unknown): StreamedRun;
}

const referencesIn = (view: string) => [...view.matchAll(/\[\[buy:\d+\]\]/g)].map((m) => m[0]);

function linksOf(output: unknown): string[] {
  return (output as SearchCatalogOutput).response.products.flatMap((product) =>
    product.variants.map((variant) => variant.url ?? ''),
  );
}

const textOf = (message: { parts: Array<{ type: string; text?: string }> }) =>
  message.parts.flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : [])).join('');

/** The buy link helpers, through generateText and streamText of one `ai` major. */
export function describeBuyLinkHelpers(harness: BuyLinksHarness): void {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  function tools(buyLinks: AiSdkCatalogToolsOptions['buyLinks']): ToolSet {
    return createCatalogTools({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
      include: ['search_catalog'],
      buyLinks,
    });
  }

  describe(`buy links with generateText (ai ${harness.major})`, () => {
    it('reference mode: the model writes references, the application shows the exact links', async () => {
      const { result, view } = await harness.generate(tools('reference'), (seen) => {
        const [first, second] = referencesIn(seen);
        return `1. [Buy the first](${first})\n2. ${second}.\n3. [[buy:000000001]]`;
      });
      const links = linksOf(result.steps[0]?.toolResults[0]?.output);
      // The model never read a buy link, only references to them.
      for (const link of links) expect(view).not.toContain(link);
      expect(referencesIn(view)).toEqual(links.map(buyLinkReference));

      const final = finalizeResultBuyLinks(result);
      expect(final.text).toBe(
        `1. [Buy the first](${links[0]})\n2. ${links[1]}.\n3. [[buy:000000001]]`,
      );
      expect(final.unresolved.map((issue) => issue.reference)).toEqual(['[[buy:000000001]]']);
      expect(final.ok).toBe(false);
    });

    it('inline mode: corrupted copies and other links are reported, never verified', async () => {
      const { result } = await harness.generate(tools('inline'), (seen) => {
        const [first, second] = [...seen.matchAll(/https:\/\/go\.catalogkit\.test\S+/g)].map(
          (m) => m[0],
        );
        return `Buy: ${first!.replaceAll('%2F', '/')}, or <${second!.slice(0, -2)}>. Shop: https://www.example.com`;
      });
      const links = linksOf(result.steps[0]?.toolResults[0]?.output);
      const final = finalizeResultBuyLinks(result);
      // Never rewritten: a miscopy is not a buy link, and neither is another site's page.
      expect(final.verified).toEqual([]);
      expect(final.issues.map((issue) => issue.url)).toEqual([
        links[0]!.replaceAll('%2F', '/'),
        links[1]!.slice(0, -2),
        'https://www.example.com',
      ]);
      expect(final.ok).toBe(false);
    });
  });

  describe(`resolveBuyLinksTransform with streamText (ai ${harness.major})`, () => {
    const answerOf = (view: string) => `Get it: ${referencesIn(view)[0]}!`;

    async function run(split: (answer: string) => string[], extra = '') {
      const unresolved: string[] = [];
      const transform = resolveBuyLinksTransform({
        onUnresolved: (issue) => unresolved.push(issue.reference),
      });
      const result = harness.stream(
        tools('reference'),
        (view) => split(answerOf(view) + extra),
        transform,
      );
      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      const steps = await result.steps;
      const links = linksOf(steps[0]?.toolResults[0]?.output);
      return { deltas, text: await result.text, links, unresolved };
    }

    it('resolves a reference whatever chunk boundary splits it', async () => {
      const whole = await run((answer) => [answer]);
      const link = whole.links[0]!;
      const expected = `Get it: ${link}!`;
      expect(whole.text).toBe(expected);
      const length = `Get it: ${buyLinkReference(link)}!`.length;
      for (let cut = 0; cut <= length; cut++) {
        const { deltas, text, unresolved } = await run((answer) => [
          answer.slice(0, cut),
          answer.slice(cut),
        ]);
        expect(text, `cut at ${cut}`).toBe(expected);
        expect(deltas.join('')).toBe(expected);
        // No delta ever shows part of a reference.
        for (const delta of deltas) expect(delta).not.toMatch(/\[\[|buy:/);
        expect(unresolved).toEqual([]);
      }
    });

    it('resolves references streamed a character at a time and reports unknown ones', async () => {
      const { text, links, unresolved } = await run((answer) => [...answer], ' [[buy:000000001]]');
      expect(text).toBe(`Get it: ${links[0]}! [[buy:000000001]]`);
      expect(unresolved).toEqual(['[[buy:000000001]]']);
    });

    it('reaches UI message streams resolved; finalizeUIMessageBuyLinks resolves stored ones', async () => {
      const streamed = async (transform: boolean) => {
        const result = harness.stream(
          tools('reference'),
          (view) => [...answerOf(view)],
          transform ? resolveBuyLinksTransform() : undefined,
        );
        const message = await result.uiMessage();
        return { message, links: linksOf((await result.steps)[0]?.toolResults[0]?.output) };
      };
      const live = await streamed(true);
      expect(textOf(live.message)).toBe(`Get it: ${live.links[0]}!`);

      const stored = await streamed(false);
      expect(textOf(stored.message)).toBe(`Get it: ${buyLinkReference(stored.links[0]!)}!`);
      const user = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi [[buy:1]]' }] };
      const safe = finalizeUIMessageBuyLinks([user, stored.message]);
      expect(textOf(safe.messages[1]!)).toBe(`Get it: ${stored.links[0]}!`);
      expect(safe.messages[0]).toBe(user);
      expect(safe.ok).toBe(true);
      // The stored message itself is not changed.
      expect(textOf(stored.message)).toContain('[[buy:');
    });
  });
}
