import type { SearchCatalogOutput, SearchWebsitesOutput } from '@catalogkit/core';
import { buyLinkReference } from '@catalogkit/core/tools';
import { type AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import type { DynamicStructuredTool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import {
  declaredTools,
  openAiResultsSeen,
  type ScriptedCall,
  type ScriptedTurn,
  startOpenAiStandIn as startOpenAiChatStandIn,
} from '../../testing/src/stand-ins/index.js';
import { createCatalogTools, isCatalogToolFailure } from '../src/index.js';
import { clientOptions, useEmulator } from './support/langchain-tools-suite.js';

// @langchain/openai 1.x needs @langchain/core ^1.2, so this runs in the core-v1 project only.
const emulator = useEmulator();

/** The tool calls of an AIMessage, run through the tools: one `batch` per tool. */
async function runToolCalls(
  tools: DynamicStructuredTool[],
  message: AIMessage,
): Promise<ToolMessage[]> {
  const calls = message.tool_calls ?? [];
  const results = new Map<string, ToolMessage>();
  for (const tool of tools) {
    const mine = calls.filter((call) => call.name === tool.name);
    if (mine.length === 0) continue;
    const messages: ToolMessage[] = await tool.batch(
      mine.map((call) => ({ ...call, type: 'tool_call' as const })),
    );
    for (const toolMessage of messages) results.set(toolMessage.tool_call_id, toolMessage);
  }
  return calls.map((call) => results.get(call.id ?? '')!);
}

// The calls a model that leaves optional fields out sends (the shapes of Claude, Gemini and
// open models), plus one that fails at the service.
const serviceCalls: ScriptedCall[] = [
  { name: 'search_catalog', args: { query: 'running shoes' } },
  { name: 'search_catalog', args: { query: 'trail shoes', limit: '2' } },
  { name: 'search_websites', args: { query: 'running', country: 'UK' } },
  { name: 'update_collection', args: { collection_id: 'col_nope', name: 'X' } },
];
// A call the input schema refuses (limit is at most 20).
const tooMany: ScriptedCall = { name: 'search_websites', args: { query: 'running', limit: 99 } };
const FINAL = 'Here is what I found.';
const turns: ScriptedTurn[] = [[...serviceCalls, tooMany], FINAL];

const model = (baseURL: string) =>
  new ChatOpenAI({ model: 'gpt-4.1-mini', apiKey: 'sk-stand-in', configuration: { baseURL } });

describe('ChatOpenAI (@langchain/openai) against a stand-in of the OpenAI API', () => {
  it('a chain: bindTools, the tool calls run with tool.batch, ToolMessages fed back', async () => {
    const standIn = await startOpenAiChatStandIn(turns);
    try {
      const tools = createCatalogTools({
        clientOptions: clientOptions(emulator().keys.valid, emulator()),
      });
      const modelWithTools = model(standIn.baseURL).bindTools(tools, { strict: true });
      const messages = [new HumanMessage('Find running shoes and UK retailers')];
      // LCEL: the model, then its tool calls through the tools.
      const chain = modelWithTools.pipe(
        RunnableLambda.from(async (message: AIMessage) => ({
          message,
          toolMessages: await runToolCalls(tools, message),
        })),
      );
      const { message, toolMessages } = await chain.invoke(messages);
      const answer = await modelWithTools.invoke([...messages, message, ...toolMessages]);

      expect(standIn.schemaProblems).toEqual([]);
      expect(declaredTools(standIn.requests[0]!).map((tool) => tool.strict)).toEqual([
        true,
        true,
        true,
      ]);
      expect(answer.content).toBe('Here is what I found.');
      const [shoes, trail, websites, missing, refused] = toolMessages;
      // The refused call does not reject its batch: it is an error ToolMessage of its own.
      expect(toolMessages.map((toolMessage) => toolMessage.status)).toEqual([
        'success',
        'success',
        'success',
        'error',
        'error',
      ]);
      expect(refused!.content).toBe(
        'Error: Invalid arguments: limit: must be a whole number from 1 to 20, or null for the default (5). Fix these fields and call the tool again.',
      );
      // The application gets the full results as artifacts.
      expect((shoes!.artifact as SearchCatalogOutput).response.products.length).toBeGreaterThan(0);
      expect((trail!.artifact as SearchCatalogOutput).request.pagination?.limit).toBe(2);
      expect((websites!.artifact as SearchWebsitesOutput).request.country).toBe('GB');
      expect(isCatalogToolFailure(missing!.artifact)).toBe(true);
      // The model read the compact views and the error text, and never the key.
      const seen = openAiResultsSeen(standIn.requests[1]);
      expect(seen.map((result) => result.text)).toEqual(toolMessages.map((m) => m.content));
      // Buy links as references (the default); the links stay in the artifact.
      const firstUrl = (shoes!.artifact as SearchCatalogOutput).response.products[0]!.variants[0]!
        .url!;
      expect(seen[0]?.text).toContain(buyLinkReference(firstUrl));
      expect(seen[0]?.text).not.toMatch(/https?:/i);
      expect(seen[3]?.text).toMatch(/^Error: Not found/);
      expect(JSON.stringify(standIn.requests.map((r) => r.body))).not.toContain(
        emulator().keys.valid,
      );
    } finally {
      await standIn.close();
    }
  });

  it('an agent (LangGraph) with the same calls, and one the schema refuses', async () => {
    const standIn = await startOpenAiChatStandIn(turns);
    try {
      const agent = createReactAgent({
        llm: model(standIn.baseURL),
        tools: createCatalogTools({
          clientOptions: clientOptions(emulator().keys.valid, emulator()),
        }),
      });
      const state = await agent.invoke({ messages: [new HumanMessage('Find running shoes')] });
      const toolMessages = state.messages.filter(
        (message): message is ToolMessage => message instanceof ToolMessage,
      );
      // Service failures and schema violations alike reach the model as error ToolMessages.
      expect(toolMessages.map((toolMessage) => toolMessage.status)).toEqual([
        'success',
        'success',
        'success',
        'error',
        'error',
      ]);
      expect(String(toolMessages[4]?.content)).toMatch(/limit/);
      expect(String(state.messages.at(-1)?.content)).toBe('Here is what I found.');
      expect(openAiResultsSeen(standIn.requests[1])).toHaveLength(5);
    } finally {
      await standIn.close();
    }
  });
});
