/*
 * The stand-ins and the kit against the provider packages at the lowest and the newest versions
 * the kit's peerDependencies admit (see lines.ts): one suite, run once per line. `pnpm test`
 * runs it on the newest line (the installed dev dependencies) and, through
 * test/lowest.vitest.config.ts, on the lowest.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import {
  type AIMessage,
  type BaseMessage,
  HumanMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import { tool as langChainTool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { Agent, tool as agentsTool, OpenAIProvider, run, setTracingDisabled } from '@openai/agents';
import { generateText, type LanguageModel, stepCountIs, streamText, type ToolSet } from 'ai';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentFunction,
  type Framework,
  type ModelScript,
  type RunningStandIn,
  runScenario,
  SCENARIOS,
  startAnthropicStandIn,
  startGoogleStandIn,
  startOpenAiStandIn,
} from '../src/index.js';
import type { Line } from './lines.js';
import { langChainAgent, openAiAgentsAgent } from './support/agents.js';
import { aiSdkAnyVersionAgent } from './support/ai-sdk-any-version.js';

const LINE: Line = inject('line') ?? 'newest';

/** The versions each line must load: the aliases took effect, or the suite stops here. */
const VERSIONS: Record<Line, Record<string, string>> = {
  lowest: {
    ai: '5.0.277',
    '@ai-sdk/openai': '2.0.131',
    '@ai-sdk/anthropic': '2.0.112',
    '@ai-sdk/google': '2.0.108',
    '@langchain/core': '0.3.80',
    '@langchain/openai': '0.6.17',
  },
  newest: {
    ai: '7.0.173',
    '@ai-sdk/openai': '4.0.118',
    '@ai-sdk/anthropic': '4.0.105',
    '@ai-sdk/google': '4.0.121',
    '@langchain/core': '1.2.13',
    '@langchain/openai': '1.6.0',
  },
};

async function loadedVersions(): Promise<Record<string, string>> {
  const manifests = await Promise.all([
    import('ai/package.json'),
    import('@ai-sdk/openai/package.json'),
    import('@ai-sdk/anthropic/package.json'),
    import('@ai-sdk/google/package.json'),
    import('@langchain/core/package.json'),
    import('@langchain/openai/package.json'),
  ]);
  return Object.fromEntries(manifests.map(({ default: { name, version } }) => [name, version]));
}

const FINAL = 'Found two tents for you.';
/** What the model means: a query, and no limit. */
const SCRIPT: ModelScript = [[{ name: 'find', args: { query: 'tents', limit: null } }], FINAL];

let standIn: RunningStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

/** A `find` tool for the AI SDK (strict: every field required, `limit` nullable). */
function aiSdkFind(inputs: unknown[], limit: z.ZodType = z.number().nullable()): ToolSet {
  return {
    find: {
      description: 'Find products',
      inputSchema: z.object({ query: z.string(), limit }),
      // AI SDK 7 passes `strict` on; 5 has no such field (the provider option asks instead).
      strict: true,
      execute: async (input: unknown) => {
        inputs.push(input);
        return '2 tents';
      },
    },
  } as ToolSet;
}

/** One AI SDK run, generated or streamed, asking for OpenAI strict mode the way both lines can. */
async function aiSdkRun(model: LanguageModel, tools: ToolSet, streamed: boolean): Promise<string> {
  const options = {
    model,
    tools,
    prompt: 'Tents please',
    stopWhen: stepCountIs(3),
    providerOptions: { openai: { strictJsonSchema: true } },
  };
  if (!streamed) return (await generateText(options)).text;
  const result = streamText(options);
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return text;
}

describe(`provider packages on the ${LINE} line`, () => {
  it('loads the line’s versions, and @langchain/openai runs on the line’s @langchain/core', async () => {
    expect(await loadedVersions()).toEqual(VERSIONS[LINE]);
    expect(new ChatOpenAI({ apiKey: 'k' })).toBeInstanceOf(BaseChatModel);
  });
});

describe('the OpenAI stand-in with ai and @ai-sdk/openai', () => {
  it.each([false, true])(
    'Responses (the default model), streamed %s: strict tools get nulls',
    async (streamed) => {
      standIn = await startOpenAiStandIn(SCRIPT);
      const inputs: unknown[] = [];
      const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' })('gpt-4.1-mini');

      expect(await aiSdkRun(model, aiSdkFind(inputs), streamed)).toBe(FINAL);
      expect(standIn.requests.map((request) => request.path)).toEqual(['/responses', '/responses']);
      expect(standIn.views.map((view) => view.stream)).toEqual([streamed, streamed]);
      expect(standIn.views[0]?.tools.map((tool) => [tool.name, tool.strict])).toEqual([
        ['find', true],
      ]);
      expect(inputs).toEqual([{ query: 'tents', limit: null }]);
      expect(standIn.views[1]?.results).toEqual([
        { callId: 'call_0_0', name: 'find', text: '2 tents', isError: false },
      ]);
    },
  );

  it('Chat Completions (openai.chat), streamed', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const inputs: unknown[] = [];
    const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' }).chat('gpt-4.1-mini');

    expect(await aiSdkRun(model, aiSdkFind(inputs), true)).toBe(FINAL);
    expect(standIn.requests.map((request) => request.path)).toEqual([
      '/chat/completions',
      '/chat/completions',
    ]);
    expect(inputs).toEqual([{ query: 'tents', limit: null }]);
    expect(standIn.views[1]?.results[0]).toMatchObject({ name: 'find', text: '2 tents' });
  });

  it('refuses a strict schema OpenAI would refuse, with OpenAI’s 400', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' })('gpt-4.1-mini');

    await expect(aiSdkRun(model, aiSdkFind([], z.number().optional()), false)).rejects.toThrow(
      /Invalid schema: find \(root\)\.limit: must be in required/,
    );
    expect(standIn.views).toEqual([]);
  });
});

describe('the Anthropic and Gemini stand-ins with @ai-sdk/anthropic and @ai-sdk/google', () => {
  const models = {
    anthropic: [
      startAnthropicStandIn,
      (baseURL: string) => createAnthropic({ baseURL, apiKey: 'k' })('claude-sonnet-4-5'),
    ],
    google: [
      startGoogleStandIn,
      (baseURL: string) => createGoogleGenerativeAI({ baseURL, apiKey: 'k' })('gemini-2.5-flash'),
    ],
  } as const;

  it.each([
    ['anthropic', false],
    ['anthropic', true],
    ['google', false],
    ['google', true],
  ] as const)(
    '%s, streamed %s: the optional field is left out (no null)',
    async (provider, streamed) => {
      const [start, model] = models[provider];
      standIn = await start(SCRIPT);
      const inputs: unknown[] = [];

      expect(
        await aiSdkRun(model(standIn.baseURL), aiSdkFind(inputs, z.number().optional()), streamed),
      ).toBe(FINAL);
      expect(inputs).toEqual([{ query: 'tents' }]);
      expect(standIn.views.map((view) => view.stream)).toEqual([streamed, streamed]);
      expect(standIn.views[1]?.results[0]).toMatchObject({ name: 'find', text: '2 tents' });
    },
  );
});

/** One LangChain tool round: the call, its result, the answer (invoked or streamed). */
async function langChainRound(
  model: ChatOpenAI,
  streamed: boolean,
  inputs: unknown[],
  strict?: boolean,
) {
  const limit = z.number().nullable();
  const find = langChainTool(
    async (input) => {
      inputs.push(input);
      return '2 tents';
    },
    {
      name: 'find',
      description: 'Find products',
      // Strict: every field required, null for "not given"; else the model may leave it out.
      schema: z.object({ query: z.string(), limit: strict ? limit : limit.optional() }),
    },
  );
  const withTools = model.bindTools([find], strict === undefined ? {} : { strict });
  const messages: BaseMessage[] = [new HumanMessage('Tents please')];
  const call = (await withTools.invoke(messages)) as AIMessage;
  messages.push(
    call,
    (await find.invoke({ ...call.tool_calls![0]!, type: 'tool_call' })) as ToolMessage,
  );
  if (!streamed) return String((await withTools.invoke(messages)).content);
  let text = '';
  for await (const chunk of await withTools.stream(messages)) text += String(chunk.content);
  return text;
}

describe('the OpenAI stand-in with @langchain/core and @langchain/openai (Chat Completions)', () => {
  const chat = (baseURL: string) =>
    new ChatOpenAI({ model: 'gpt-4.1-mini', apiKey: 'k', configuration: { baseURL } });

  it.each([false, true])('a tool round, streamed %s: results reach the model', async (streamed) => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const inputs: unknown[] = [];

    expect(await langChainRound(chat(standIn.baseURL), streamed, inputs)).toBe(FINAL);
    expect(standIn.requests.map((request) => request.path)).toEqual([
      '/chat/completions',
      '/chat/completions',
    ]);
    expect(standIn.views.map((view) => view.stream)).toEqual([false, streamed]);
    // Not strict: the model leaves the optional field out.
    expect(inputs).toEqual([{ query: 'tents' }]);
    expect(standIn.views[1]?.results).toEqual([
      { callId: 'call_0_0', name: 'find', text: '2 tents', isError: false },
    ]);
  });

  it('strict tools (bindTools strict) are declared strict and get every field', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const inputs: unknown[] = [];

    expect(await langChainRound(chat(standIn.baseURL), false, inputs, true)).toBe(FINAL);
    expect(standIn.views[0]?.tools.map((tool) => [tool.name, tool.strict])).toEqual([
      ['find', true],
    ]);
    expect(inputs).toEqual([{ query: 'tents', limit: null }]);
    expect(standIn.schemaProblems).toEqual([]);
  });
});

describe('the OpenAI stand-in with @openai/agents (Responses)', () => {
  beforeAll(() => setTracingDisabled(true));

  it.each([false, true])('a run, streamed %s: strict tools get nulls', async (stream) => {
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
    const result = stream
      ? await run(agent, 'Tents please', { stream: true })
      : await run(agent, 'Tents please');
    if (stream) await (result as { completed: Promise<void> }).completed;

    expect(result.finalOutput).toBe(FINAL);
    expect(inputs).toEqual([{ query: 'tents', limit: null }]);
    expect(standIn.views.map((view) => view.stream)).toEqual([stream, stream]);
    expect(standIn.views[1]?.results[0]).toMatchObject({ name: 'find', text: '2 tents' });
  });
});

/** Scenarios that exercise the framework's model package: a plain run, approval, links. */
const KIT_SCENARIOS = SCENARIOS.filter((scenario) =>
  ['shopping-run', 'update-outcome-unknown', 'link-copied-wrong'].includes(scenario.id),
);
const AGENTS: [Framework, AgentFunction<never, never>][] = [
  ['ai-sdk', aiSdkAnyVersionAgent as AgentFunction<never, never>],
  ['langchain', langChainAgent as AgentFunction<never, never>],
  ['openai-agents', openAiAgentsAgent as AgentFunction<never, never>],
];

describe.each(AGENTS)('the kit gives a %s agent the line’s model and tools', (framework, agent) => {
  it.each(KIT_SCENARIOS.map((scenario) => [scenario.id, scenario] as const))(
    '%s passes',
    async (_, scenario) => {
      const result = await runScenario(scenario, agent, { framework });
      expect(result.problems).toEqual([]);
    },
  );
});
