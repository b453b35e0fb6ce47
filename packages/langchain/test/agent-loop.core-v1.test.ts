import type { SearchCatalogOutput, UpdateCollectionOutput } from '@catalogkit/core';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { describe, expect, it } from 'vitest';
import { createCatalogTools } from '../src/index.js';
import { clientOptions, noChange, useEmulator } from './support/langchain-tools-suite.js';

// LangGraph 1.x needs @langchain/core ^1.1.48, so this loop runs in the core-v1 project only.
const emulator = useEmulator();

/** A chat model that plays a script: each turn reads the messages so far and answers. */
class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];

  constructor(private readonly script: Array<(messages: BaseMessage[]) => AIMessage>) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const turn = this.script[this.seen.length - 1];
    const message = turn ? turn(messages) : new AIMessage('Done.');
    return { generations: [{ text: String(message.content), message }] };
  }
}

describe('an agent loop (LangGraph ToolNode) with a scripted chat model', () => {
  it('runs search then update with ids the model read, with errors fed back as tool messages', async () => {
    const lastToolText = (messages: BaseMessage[]) => String(messages.at(-1)?.content);
    const model = new ScriptedChatModel([
      () =>
        new AIMessage({
          content: '',
          tool_calls: [
            {
              id: 't1',
              name: 'search_catalog',
              args: { query: 'espresso machine', limit: 2, cursor: null, placements: null },
            },
          ],
        }),
      (messages) => {
        const productId = /\| (prod_\w+)/.exec(lastToolText(messages))?.[1] ?? 'missing';
        const clause = {
          brand_ids: [],
          website_ids: [],
          category_ids: [],
          product_ids: [productId],
        };
        return new AIMessage({
          content: '',
          tool_calls: [
            {
              id: 't2',
              name: 'update_collection',
              args: { ...noChange, collection_id: 'col_summer', add_clauses: [clause] },
            },
          ],
        });
      },
      () =>
        new AIMessage({
          content: '',
          tool_calls: [
            {
              id: 't3',
              name: 'update_collection',
              args: { ...noChange, collection_id: 'col_missing', name: 'X' },
            },
          ],
        }),
    ]);
    const agent = createReactAgent({
      llm: model,
      tools: createCatalogTools({
        clientOptions: clientOptions(emulator().keys.valid, emulator()),
      }),
    });
    const state = await agent.invoke({
      messages: [new HumanMessage('Keep an espresso machine in my Summer collection')],
    });

    const toolMessages = state.messages.filter(
      (message): message is ToolMessage => message instanceof ToolMessage,
    );
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(['t1', 't2', 't3']);
    const [searched, updated, missing] = toolMessages;
    const firstProduct = (searched!.artifact as SearchCatalogOutput).response.products[0]!.id;
    expect(
      (updated!.artifact as UpdateCollectionOutput).response.clauses?.at(-1)?.product_ids,
    ).toEqual([firstProduct]);
    expect(toolMessages.map((message) => message.status)).toEqual(['success', 'success', 'error']);
    expect(missing!.content).toBe(
      'Error: Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
    );
    // The model saw the compact text (not the artifact), and never the key.
    expect(lastToolText(model.seen[1]!)).toBe(searched!.content);
    expect(JSON.stringify(model.seen)).not.toContain(emulator().keys.valid);
    expect(String(state.messages.at(-1)?.content)).toBe('Done.');
  });
});
