import { createOpenAI } from '@ai-sdk/openai';
import type { SearchCatalogOutput } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { generateText, stepCountIs, streamText, type ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ModelView,
  openAiResultsSeen,
  type ScriptedTurn,
  startOpenAiStandIn,
} from '../../testing/src/stand-ins/index.js';
import {
  createCatalogTools,
  finalizeResultBuyLinks,
  resolveBuyLinksTransform,
} from '../src/index.js';

// createCatalogTools() with no buyLinks option: the model reads references, never a URL,
// and everything that turns its answer into text for a shopper gives the exact buy link.

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

/** A model that searches, then recommends the first offer by the reference it read. */
function shopper(view: ModelView): ScriptedTurn {
  if (view.request === 0) {
    return [
      {
        name: 'search_catalog',
        args: { query: 'trail running shoes', limit: 3, cursor: null, placements: ['affiliate'] },
      },
    ];
  }
  const reference = /\[\[buy:\d+\]\]/.exec(view.results[0]?.text ?? '')?.[0] ?? 'no reference';
  return `The best pick: [Buy it](${reference}).`;
}

const tools = (): ToolSet =>
  createCatalogTools({
    clientOptions: {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    },
  });

const firstLinkOf = (output: unknown) =>
  (output as SearchCatalogOutput).response.products[0]?.variants[0]?.url;

describe('buy links by default (ai 7, @ai-sdk/openai against the OpenAI stand-in)', () => {
  it('generateText: the model sees no http URL; finalizeResultBuyLinks gives the buy link', async () => {
    const standIn = await startOpenAiStandIn(shopper);
    try {
      const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'sk-stand-in' }).chat(
        'gpt-4.1-mini',
      );
      const result = await generateText({
        model,
        tools: tools(),
        prompt: 'Trail running shoes?',
        stopWhen: stepCountIs(3),
      });
      const seen = openAiResultsSeen(standIn.requests[1]);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.text).toMatch(/\[\[buy:\d{9}\]\]/);
      expect(seen[0]?.text).not.toMatch(/https?:/i);
      const link = firstLinkOf(result.steps[0]?.toolResults[0]?.output);
      expect(link).toMatch(/^https:\/\//);
      expect(result.text).not.toContain('http');

      const final = finalizeResultBuyLinks(result);
      expect(final.text).toBe(`The best pick: [Buy it](${link}).`);
      expect(final.ok).toBe(true);
    } finally {
      await standIn.close();
    }
  });

  it('streamText with resolveBuyLinksTransform: the streamed text has the buy link', async () => {
    const standIn = await startOpenAiStandIn(shopper);
    try {
      const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'sk-stand-in' }).chat(
        'gpt-4.1-mini',
      );
      const result = streamText({
        model,
        tools: tools(),
        prompt: 'Trail running shoes?',
        stopWhen: stepCountIs(3),
        experimental_transform: resolveBuyLinksTransform(),
      });
      let streamed = '';
      for await (const chunk of result.textStream) streamed += chunk;
      const steps = await result.steps;
      const seen = openAiResultsSeen(standIn.requests[1]);
      expect(seen[0]?.text).not.toMatch(/https?:/i);
      const link = firstLinkOf(steps[0]?.toolResults[0]?.output);
      expect(link).toMatch(/^https:\/\//);
      expect(streamed).toBe(`The best pick: [Buy it](${link}).`);
    } finally {
      await standIn.close();
    }
  });
});
