import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  type AIMessage,
  type BaseMessage,
  HumanMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import { tool as langChainTool } from '@langchain/core/tools';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { ChatOpenAI } from '@langchain/openai';
import { Agent, tool as agentsTool, OpenAIProvider, run, setTracingDisabled } from '@openai/agents';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
  type ModelScript,
  type RunningStandIn,
  startAnthropicStandIn,
  startGoogleStandIn,
  startOpenAiStandIn,
} from '../src/index.js';

const FINAL = 'Found two tents for you.';
const SCRIPT: ModelScript = [[{ name: 'find', args: { query: 'tents', limit: null } }], FINAL];

let standIn: RunningStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

/** One tool round with a LangChain chat model: the call, its result, the answer (streamed or not). */
async function toolRound(
  model: BaseChatModel,
  streamed: boolean,
  inputs: unknown[],
  limit: z.ZodType = z.number().nullable().optional(),
) {
  const find = langChainTool(
    async (input) => {
      inputs.push(input);
      return '2 tents';
    },
    {
      name: 'find',
      description: 'Find products',
      schema: z.object({ query: z.string(), limit }),
    },
  );
  const withTools = model.bindTools!([find]);
  const messages: BaseMessage[] = [new HumanMessage('Tents please')];
  const call = (await withTools.invoke(messages)) as AIMessage;
  messages.push(
    call,
    (await find.invoke({ ...call.tool_calls![0]!, type: 'tool_call' })) as ToolMessage,
  );
  if (!streamed) return (await withTools.invoke(messages)).text;
  let text = '';
  for await (const chunk of await withTools.stream(messages)) text += chunk.text;
  return text;
}

describe('stand-ins with LangChain chat models', () => {
  it('ChatOpenAI (Chat Completions), invoked and streamed', async () => {
    for (const streamed of [false, true]) {
      standIn = await startOpenAiStandIn(SCRIPT);
      const inputs: unknown[] = [];
      const model = new ChatOpenAI({
        model: 'gpt-4.1-mini',
        apiKey: 'k',
        configuration: { baseURL: standIn.baseURL },
      });
      expect(await toolRound(model, streamed, inputs)).toBe(FINAL);
      // Not strict: the model leaves the optional field out.
      expect(inputs).toEqual([{ query: 'tents' }]);
      expect(standIn.views[1]?.results).toEqual([
        { callId: 'call_0_0', name: 'find', text: '2 tents', isError: false },
      ]);
      expect(standIn.views[1]?.stream).toBe(streamed);
      await standIn.close();
    }
    standIn = undefined;
  });

  it('ChatAnthropic (Messages, named events when streamed)', async () => {
    for (const streamed of [false, true]) {
      standIn = await startAnthropicStandIn(SCRIPT);
      const inputs: unknown[] = [];
      const model = new ChatAnthropic({
        model: 'claude-sonnet-4-5',
        apiKey: 'k',
        anthropicApiUrl: standIn.baseURL.replace(/\/v1$/, ''),
      });
      expect(await toolRound(model, streamed, inputs)).toBe(FINAL);
      expect(inputs).toEqual([{ query: 'tents' }]);
      expect(standIn.views[1]?.results[0]).toMatchObject({ name: 'find', text: '2 tents' });
      await standIn.close();
    }
    standIn = undefined;
  });

  // Gemini's Schema has no type lists, so no nullable field here (see the next test).
  it('ChatGoogleGenerativeAI (generateContent)', async () => {
    standIn = await startGoogleStandIn(SCRIPT);
    const inputs: unknown[] = [];
    const model = new ChatGoogleGenerativeAI({
      model: 'gemini-2.5-flash',
      apiKey: 'k',
      baseUrl: standIn.baseURL.replace(/\/v1beta$/, ''),
    });
    expect(await toolRound(model, false, inputs, z.number().optional())).toBe(FINAL);
    expect(inputs).toEqual([{ query: 'tents' }]);
    expect(standIn.views[1]?.results[0]).toMatchObject({ name: 'find' });
  });

  it('ChatGoogleGenerativeAI: a nullable field is refused as Gemini refuses a type list', async () => {
    standIn = await startGoogleStandIn(SCRIPT);
    const model = new ChatGoogleGenerativeAI({
      model: 'gemini-2.5-flash',
      apiKey: 'k',
      baseUrl: standIn.baseURL.replace(/\/v1beta$/, ''),
      maxRetries: 0,
    });
    await expect(toolRound(model, false, [])).rejects.toThrow(/find\.limit: type must be one name/);
    expect(standIn.schemaProblems).toEqual(['find.limit: type must be one name']);
  });
});

describe('the OpenAI stand-in with @openai/agents (Responses)', () => {
  beforeAll(() => setTracingDisabled(true));

  it('a run and a streamed run: strict tools get nulls, results reach the model', async () => {
    for (const stream of [false, true]) {
      standIn = await startOpenAiStandIn(SCRIPT);
      const inputs: unknown[] = [];
      const find = agentsTool({
        name: 'find',
        description: 'Find products',
        parameters: z.object({ query: z.string(), limit: z.number().nullable() }),
        execute: async (input) => {
          inputs.push(input);
          return '2 tents';
        },
      });
      const provider = new OpenAIProvider({ apiKey: 'k', baseURL: standIn.baseURL });
      const agent = new Agent({
        name: 'Shopper',
        model: await provider.getModel('gpt-4.1-mini'),
        tools: [find],
      });
      let finalOutput: unknown;
      if (stream) {
        const result = await run(agent, 'Tents please', { stream: true });
        await result.completed;
        finalOutput = result.finalOutput;
      } else {
        finalOutput = (await run(agent, 'Tents please')).finalOutput;
      }
      expect(finalOutput).toBe(FINAL);
      expect(inputs).toEqual([{ query: 'tents', limit: null }]);
      expect(standIn.requests.map((request) => request.path)).toEqual(['/responses', '/responses']);
      expect(standIn.views.map((view) => view.stream)).toEqual([stream, stream]);
      expect(standIn.views[1]?.results).toEqual([
        { callId: 'call_0_0', name: 'find', text: '2 tents', isError: false },
      ]);
      await standIn.close();
    }
    standIn = undefined;
  });

  it('a run that continues a stored response (previous_response_id) shows the whole conversation', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const find = agentsTool({
      name: 'find',
      description: 'Find products',
      parameters: z.object({ query: z.string(), limit: z.number().nullable() }),
      execute: async () => '2 tents',
    });
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: standIn.baseURL });
    const agent = new Agent({
      name: 'Shopper',
      model: await provider.getModel('gpt-4.1-mini'),
      tools: [find],
    });
    const first = await run(agent, 'Tents please');
    await run(agent, 'And sleeping bags?', { previousResponseId: first.lastResponseId });

    const last = standIn.requests.at(-1)!;
    expect(last.body.previous_response_id).toBe('resp_1');
    // Only the new message was sent; the stand-in read the rest from what it answered.
    expect(JSON.stringify(last.body.input)).not.toContain('Tents please');
    const view = standIn.views.at(-1)!;
    expect(view.userMessages).toEqual(['Tents please', 'And sleeping bags?']);
    expect(view.results).toEqual([
      { callId: 'call_0_0', name: 'find', text: '2 tents', isError: false },
    ]);
  });
});
