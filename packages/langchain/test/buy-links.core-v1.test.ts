import type { SearchCatalogOutput } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/links';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import {
  createCatalogTools,
  finalizeAIMessageBuyLinks,
  resolveBuyLinkChunks,
} from '../src/index.js';
import { clientOptions, useEmulator } from './support/langchain-tools-suite.js';

// LangGraph 1.x needs @langchain/core ^1.1.48, so the agent runs in the core-v1 project only.
const emulator = useEmulator();

const SEARCH = { query: 'trail running shoes', limit: 3, cursor: null, placements: ['affiliate'] };

/**
 * A chat model that searches once, then answers with `answer(the search text it read)`,
 * streamed in the pieces `split` makes when the agent streams.
 */
class ShopperModel extends BaseChatModel {
  calls = 0;

  constructor(
    private readonly answer: (view: string) => string,
    private readonly split: (text: string) => string[] = (text) => [text],
  ) {
    super({});
  }

  _llmType(): string {
    return 'shopper';
  }

  override bindTools(): this {
    return this;
  }

  #turn(messages: BaseMessage[]): AIMessageChunk {
    this.calls++;
    const last = messages.at(-1);
    if (!(last instanceof ToolMessage)) {
      return new AIMessageChunk({
        content: '',
        tool_call_chunks: [
          { id: 't1', name: 'search_catalog', args: JSON.stringify(SEARCH), index: 0 },
        ],
      });
    }
    return new AIMessageChunk({ content: this.answer(String(last.content)) });
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const chunk = this.#turn(messages);
    const message = new AIMessage({ content: chunk.content, tool_calls: chunk.tool_calls ?? [] });
    return { generations: [{ text: String(chunk.content), message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const chunk = this.#turn(messages);
    const pieces =
      typeof chunk.content === 'string' && chunk.content ? this.split(chunk.content) : [''];
    for (const [i, text] of pieces.entries()) {
      const id = `answer-${this.calls}`;
      const message =
        i === 0
          ? new AIMessageChunk({ ...chunk, content: text, id })
          : new AIMessageChunk({ content: text, id });
      const generation = new ChatGenerationChunk({ text, message });
      // As provider models do: the chunk goes with the token, so stream handlers keep its id.
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, {
        chunk: generation,
      });
      yield generation;
    }
  }
}

const referencesIn = (view: string) => [...view.matchAll(/\[\[buy:\d+\]\]/g)].map((m) => m[0]);

function agentWith(model: ShopperModel) {
  return createReactAgent({
    llm: model,
    tools: createCatalogTools({
      clientOptions: clientOptions(emulator().keys.valid, emulator()),
      include: ['search_catalog'],
      buyLinks: 'reference',
    }),
  });
}

function linksIn(messages: BaseMessage[]): string[] {
  const search = messages.find((message): message is ToolMessage => message instanceof ToolMessage);
  return (search!.artifact as SearchCatalogOutput).response.products.flatMap((product) =>
    product.variants.map((variant) => variant.url ?? ''),
  );
}

describe('buy links in a LangGraph agent', () => {
  it("finalizeAIMessageBuyLinks turns the final answer's references into the exact links", async () => {
    const model = new ShopperModel((view) => {
      const [first, second] = referencesIn(view);
      return `1. [Buy](${first})\n2. ${second}\n3. [[buy:000000001]]`;
    });
    const state = await agentWith(model).invoke({ messages: [new HumanMessage('Trail shoes?')] });
    const links = linksIn(state.messages);
    const view = String(state.messages.find((m: BaseMessage) => m instanceof ToolMessage)?.content);
    for (const link of links) expect(view).not.toContain(link);

    const final = finalizeAIMessageBuyLinks(state.messages);
    expect(final.text).toBe(`1. [Buy](${links[0]})\n2. ${links[1]}\n3. [[buy:000000001]]`);
    expect(final.message).toBeInstanceOf(AIMessage);
    expect(final.message.content).toBe(final.text);
    expect(final.unresolved.map((issue) => issue.reference)).toEqual(['[[buy:000000001]]']);
    expect(final.ok).toBe(false);
  });

  it('resolveBuyLinkChunks resolves references in streamed chunks, whatever the boundary', async () => {
    const answer = (view: string) => `Buy: ${referencesIn(view)[0]}.`;
    const streamed = async (split: (text: string) => string[]) => {
      const agent = agentWith(new ShopperModel(answer, split));
      const stream = await agent.stream(
        { messages: [new HumanMessage('Trail shoes?')] },
        { streamMode: 'messages' },
      );
      const texts: string[] = [];
      const all: BaseMessage[] = [];
      for await (const [message] of resolveBuyLinkChunks(stream)) {
        all.push(message);
        if (message.getType() === 'ai') texts.push(String(message.content));
      }
      return { texts, links: linksIn(all) };
    };
    const whole = await streamed((text) => [text]);
    const expected = `Buy: ${whole.links[0]}.`;
    expect(whole.texts.join('')).toBe(expected);
    const length = `Buy: ${buyLinkReference(whole.links[0]!)}.`.length;
    for (let cut = 0; cut <= length; cut++) {
      const { texts } = await streamed((text) => [text.slice(0, cut), text.slice(cut)]);
      expect(texts.join(''), `cut at ${cut}`).toBe(expected);
      for (const text of texts) expect(text).not.toMatch(/\[\[|buy:/);
    }
  });
});
