import type { SearchCatalogOutput } from '@catalogkit/core';
import { type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import {
  type ModelView,
  openAiResultsSeen,
  type ScriptedTurn,
  startOpenAiStandIn,
} from '../../testing/src/stand-ins/index.js';
import {
  createCatalogTools,
  finalizeAIMessageBuyLinks,
  resolveBuyLinkChunks,
} from '../src/index.js';
import { clientOptions, useEmulator } from './support/langchain-tools-suite.js';

// createCatalogTools() with no buyLinks option: the model reads references, never a URL,
// and the helpers that turn its answer into text for a shopper give the exact buy link.
const emulator = useEmulator();

/** A model that searches, then recommends the first offer by the reference it read. */
function shopper(view: ModelView): ScriptedTurn {
  if (view.request === 0)
    return [{ name: 'search_catalog', args: { query: 'trail running shoes' } }];
  const reference = /\[\[buy:\d+\]\]/.exec(view.results[0]?.text ?? '')?.[0] ?? 'no reference';
  return `The best pick: [Buy it](${reference}).`;
}

const agentAt = (baseURL: string) =>
  createReactAgent({
    llm: new ChatOpenAI({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-stand-in',
      configuration: { baseURL },
    }),
    tools: createCatalogTools({ clientOptions: clientOptions(emulator().keys.valid, emulator()) }),
  });

/** The first buy link of the search_catalog ToolMessage's artifact (the full result). */
function firstLinkOf(messages: readonly BaseMessage[]): string | undefined {
  const search = messages.find((message) => message instanceof ToolMessage) as ToolMessage;
  return (search.artifact as SearchCatalogOutput).response.products[0]?.variants[0]?.url;
}

describe('buy links by default (ChatOpenAI against the OpenAI stand-in, a LangGraph agent)', () => {
  it('invoke: the model sees no http URL; finalizeAIMessageBuyLinks gives the buy link', async () => {
    const standIn = await startOpenAiStandIn(shopper);
    try {
      const state = await agentAt(standIn.baseURL).invoke({
        messages: [new HumanMessage('Trail running shoes?')],
      });
      const seen = openAiResultsSeen(standIn.requests[1]);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.text).toMatch(/\[\[buy:\d{9}\]\]/);
      expect(seen[0]?.text).not.toMatch(/https?:/i);
      const link = firstLinkOf(state.messages);
      expect(link).toMatch(/^https:\/\//);

      const final = finalizeAIMessageBuyLinks(state.messages);
      expect(final.text).toBe(`The best pick: [Buy it](${link}).`);
      expect(final.ok).toBe(true);
    } finally {
      await standIn.close();
    }
  });

  it("stream (streamMode 'messages') through resolveBuyLinkChunks: the shown text has the buy link", async () => {
    const standIn = await startOpenAiStandIn(shopper);
    try {
      const stream = await agentAt(standIn.baseURL).stream(
        { messages: [new HumanMessage('Trail running shoes?')] },
        { streamMode: 'messages' },
      );
      const messages: BaseMessage[] = [];
      let shown = '';
      for await (const [message] of resolveBuyLinkChunks(stream)) {
        messages.push(message);
        if (message.getType() === 'ai') shown += String(message.content);
      }
      expect(openAiResultsSeen(standIn.requests[1])[0]?.text).not.toMatch(/https?:/i);
      const link = firstLinkOf(messages);
      expect(link).toMatch(/^https:\/\//);
      expect(shown).toBe(`The best pick: [Buy it](${link}).`);
    } finally {
      await standIn.close();
    }
  });
});
