import { CatalogClient } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { LookupArtifacts } from '../src/index.js';
import {
  type CatalogLangChainTool,
  createCatalogTools,
  finalizeAIMessageBuyLinks,
} from '../src/index.js';

let emulator: RunningEmulator;
afterEach(() => emulator.close());

async function discovered(options: Parameters<typeof startEmulator>[0] = {}) {
  emulator = await startEmulator({ port: 0, ...options });
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    mcpUrl: emulator.mcpUrl,
  });
  return { client, serviceTools: await client.catalog.tools() };
}

/** A chat model that calls `calls` once, then answers with every buy reference it read. */
class ScriptedModel extends BaseChatModel {
  constructor(private readonly calls: { name: string; args: Record<string, unknown> }[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const read = messages.filter((m) => m instanceof ToolMessage).map((m) => String(m.content));
    const message =
      read.length === 0
        ? new AIMessage({
            content: '',
            tool_calls: this.calls.map((call, i) => ({ ...call, id: `t${i}`, type: 'tool_call' })),
          })
        : new AIMessage({ content: (read.join('\n').match(/\[\[buy:\d{9}\]\]/g) ?? []).join(' ') });
    return { generations: [{ text: String(message.content), message }] };
  }
}

describe('lookup_catalog and get_product in a LangGraph agent', () => {
  it('the agent calls both (by id and by URL); the buy links it writes resolve and verify', async () => {
    const tools = createCatalogTools(await discovered());
    const product = emulator.data.products.find(
      (p) => new Set(p.variants.map((v) => v.options[0]?.label)).size >= 2,
    );
    const other = emulator.data.products.find((p) => p !== product);
    const colour = product?.variants[0]?.options[0]?.label;
    const model = new ScriptedModel([
      {
        name: 'lookup_catalog',
        args: { product_ids: [other?.id], urls: [product?.variants[0]?.url] },
      },
      {
        name: 'get_product',
        args: {
          product_id: product?.id,
          selected: [{ name: 'Color', label: colour }],
          preferences: null,
        },
      },
    ]);
    const agent = createReactAgent({ llm: model, tools });
    const state = await agent.invoke({ messages: [new HumanMessage('Details please')] });
    const results = state.messages.filter(
      (m: BaseMessage): m is ToolMessage => m instanceof ToolMessage,
    );
    expect(results.map((m: ToolMessage) => [m.name, m.status])).toEqual([
      ['lookup_catalog', 'success'],
      ['get_product', 'success'],
    ]);
    const lookup = results[0]?.artifact as LookupArtifacts['lookup_catalog'];
    const got = results[1]?.artifact as LookupArtifacts['get_product'];
    expect(lookup.response.products.map((p) => p.id)).toEqual([other?.id, product?.id]);
    const links = [
      ...lookup.response.products.flatMap((p) => p.variants.map((v) => v.url)),
      ...(got.response.product?.variants.map((v) => v.url) ?? []),
    ];
    for (const link of links)
      expect(String(results.map((m: ToolMessage) => m.content))).not.toContain(link);
    const final = finalizeAIMessageBuyLinks(state.messages);
    expect(final.ok).toBe(true);
    expect(final.text).toBe(links.join(' '));
  });

  it('types a kept lookup tool by its name and artifact', async () => {
    const [tool] = createCatalogTools({ ...(await discovered()), include: ['get_product'] });
    expectTypeOf(tool).toEqualTypeOf<
      CatalogLangChainTool<'get_product', LookupArtifacts['get_product']> | undefined
    >();
    expect(tool?.name).toBe('get_product');
  });

  it('with the tools off in the emulator, the tool set is exactly today’s', async () => {
    const { client, serviceTools } = await discovered({ lookupTools: false });
    const fallback = createCatalogTools({ client, serviceTools });
    expect(fallback.map((tool) => tool.name)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
    ]);
    const today = createCatalogTools({ client });
    expect(fallback.map((tool) => [tool.name, tool.description])).toEqual(
      today.map((tool) => [tool.name, tool.description]),
    );
  });
});
