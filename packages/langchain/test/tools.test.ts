import {
  findStrictModeViolations,
  RateLimitError,
  type SearchCatalogOutput,
  type SearchWebsitesOutput,
  type UpdateCollectionOutput,
  ValidationError,
} from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogToolkit, createCatalogTools, isCatalogToolFailure } from '../src/index.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

const clientOptions = (apiKey: string, target: RunningEmulator = emulator) => ({
  apiKey,
  baseUrl: target.baseUrl,
  mcpUrl: target.mcpUrl,
});
const noChange = {
  name: null,
  description: null,
  add_clauses: null,
  replace_clauses: null,
  remove_clause_ids: null,
};

function toolNamed(tools: DynamicStructuredTool[], name: string): DynamicStructuredTool {
  const found = tools.find((tool) => tool.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function invokeWithToolCall(
  tool: DynamicStructuredTool,
  args: Record<string, unknown>,
  id = 'call_1',
) {
  const message: unknown = await tool.invoke({ id, name: tool.name, args, type: 'tool_call' });
  expect(message).toBeInstanceOf(ToolMessage);
  const toolMessage = message as ToolMessage;
  expect(toolMessage.tool_call_id).toBe(id);
  expect(toolMessage.name).toBe(tool.name);
  return toolMessage;
}

describe('createCatalogTools invoked with a ToolCall', () => {
  const tools = () =>
    createCatalogTools({
      clientOptions: clientOptions(emulator.keys.valid),
      defaults: { placements: ['affiliate'] },
    });

  it('search_catalog: compact content for the model, the full result as the artifact', async () => {
    const message = await invokeWithToolCall(toolNamed(tools(), 'search_catalog'), {
      query: 'rain jacket',
      limit: 3,
      cursor: null,
      placements: null,
    });
    const artifact = message.artifact as SearchCatalogOutput;
    expect(artifact.tier).toBe('token');
    expect(artifact.result.products).toHaveLength(3);
    expect(typeof message.content).toBe('string');
    for (const variant of artifact.result.products.flatMap((product) => product.variants)) {
      expect(message.content).toContain(variant.url);
    }
    expect(message.content).toContain(artifact.result.products[0]!.id);
    expect(message.content).toMatch(/\d+(\.\d+)?% \| https:/);
  });

  it('search_websites: ids for clauses in the content, the response as the artifact', async () => {
    const message = await invokeWithToolCall(toolNamed(tools(), 'search_websites'), {
      query: 'outdoor',
      limit: 2,
      category_ids: null,
      country: 'DE',
    });
    const artifact = message.artifact as SearchWebsitesOutput;
    expect(artifact.request.country).toBe('DE');
    for (const website of artifact.response.websites)
      expect(message.content).toContain(`website_id ${website.id}`);
  });

  it('update_collection: the collection after the change; an unknown clause id comes back as an error text', async () => {
    const updateCollection = toolNamed(tools(), 'update_collection');
    const updated = await invokeWithToolCall(updateCollection, {
      ...noChange,
      collection_id: 'col_summer',
      description: 'Things for the beach',
    });
    const artifact = updated.artifact as UpdateCollectionOutput;
    expect(artifact.collection.description).toBe('Things for the beach');
    expect(updated.content).toContain('Description: Things for the beach');

    const failed = await invokeWithToolCall(updateCollection, {
      ...noChange,
      collection_id: 'col_summer',
      replace_clauses: [
        { clause_id: 'cl_nope', brand_ids: [], website_ids: [], category_ids: [], product_ids: [] },
      ],
    });
    expect(failed.content).toBe(
      "Error: The catalog service refused the input: replace_clauses.0.clause_id: Unknown clause id 'cl_nope' in collection 'col_summer'. Fix these fields and try again.",
    );
    expect(isCatalogToolFailure(failed.artifact)).toBe(true);
    expect(failed.artifact.error).toBeInstanceOf(ValidationError);
  });

  it('refuses arguments that break the input schema, naming the field', async () => {
    const call = toolNamed(tools(), 'search_websites').invoke({
      id: 'call_bad',
      name: 'search_websites',
      args: { query: 'x', limit: 99, category_ids: null, country: null },
      type: 'tool_call',
    });
    await expect(call).rejects.toThrowError(/limit/);
  });

  it('tells the model when the daily rate limit resets (429)', async () => {
    const limited = await startEmulator({ port: 0, rateLimits: { mcpToken: 1 } });
    try {
      const search = toolNamed(
        createCatalogTools({ clientOptions: clientOptions(limited.keys.valid, limited) }),
        'search_catalog',
      );
      const args = { query: 'yoga mat', limit: 1, cursor: null, placements: null };
      await invokeWithToolCall(search, args);
      const limitedMessage = await invokeWithToolCall(search, args, 'call_2');
      expect(limitedMessage.content).toMatch(
        /^Error: Rate limit of the catalog service reached \(limits are daily, per UTC day\)\. It resets at \d{4}-\d\d-\d\dT00:00Z/,
      );
      expect(limitedMessage.artifact.error).toBeInstanceOf(RateLimitError);
    } finally {
      await limited.close();
    }
  });

  it('has schemas LangChain turns into OpenAI strict-mode JSON Schema', () => {
    for (const tool of tools())
      expect(findStrictModeViolations(toJsonSchema(tool.schema)), tool.name).toEqual([]);
  });
});

describe('CatalogToolkit', () => {
  it('gives the selected, renamed tools and keeps the key out of its serialised form', () => {
    const toolkit = new CatalogToolkit({
      clientOptions: clientOptions(emulator.keys.valid),
      include: ['search_catalog', 'search_websites'],
      rename: (name) => `shop_${name}`,
    });
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual([
      'shop_search_catalog',
      'shop_search_websites',
    ]);
    expect(JSON.stringify(toolkit)).not.toContain(emulator.keys.valid);
  });
});

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
      tools: createCatalogTools({ clientOptions: clientOptions(emulator.keys.valid) }),
    });
    const state = await agent.invoke({
      messages: [new HumanMessage('Keep an espresso machine in my Summer collection')],
    });

    const toolMessages = state.messages.filter(
      (message): message is ToolMessage => message instanceof ToolMessage,
    );
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(['t1', 't2', 't3']);
    const [searched, updated, missing] = toolMessages;
    const firstProduct = (searched!.artifact as SearchCatalogOutput).result.products[0]!.id;
    expect(
      (updated!.artifact as UpdateCollectionOutput).collection.clauses?.at(-1)?.product_ids,
    ).toEqual([firstProduct]);
    expect(missing!.content).toBe(
      'Error: Not found: Collection not found. Check the ids you gave; use ids from earlier tool results only.',
    );
    // The model saw the compact text (not the artifact), and never the key.
    expect(lastToolText(model.seen[1]!)).toBe(searched!.content);
    expect(JSON.stringify(model.seen)).not.toContain(emulator.keys.valid);
    expect(String(state.messages.at(-1)?.content)).toBe('Done.');
  });
});
