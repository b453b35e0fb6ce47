import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  generateText,
  jsonSchema,
  type LanguageModel,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
  type ModelScript,
  type RunningStandIn,
  startAnthropicStandIn,
  startGoogleStandIn,
  startOpenAiCompatibleStandIn,
  startOpenAiStandIn,
} from '../src/index.js';

const FINAL = 'Found two tents for you.';
/** What the model means: a query, and no limit. */
const SCRIPT: ModelScript = [[{ name: 'find', args: { query: 'tents', limit: null } }], FINAL];

/** A tool that records the input the framework gave it. */
function findTool(schema: 'strict' | 'optional', inputs: unknown[]): ToolSet {
  const execute = async (input: { query: string }) => {
    inputs.push(input);
    return `2 tents for "${input.query}"`;
  };
  const find =
    schema === 'strict'
      ? tool({
          description: 'Find products',
          inputSchema: z.object({ query: z.string(), limit: z.number().nullable() }),
          strict: true,
          execute,
        })
      : tool({
          description: 'Find products',
          inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
          execute,
        });
  return { find };
}

let standIn: RunningStandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function generate(model: LanguageModel, tools: ToolSet) {
  return generateText({ model, tools, prompt: 'Tents please', stopWhen: stepCountIs(3) });
}

async function stream(model: LanguageModel, tools: ToolSet) {
  const result = streamText({ model, tools, prompt: 'Tents please', stopWhen: stepCountIs(3) });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  return { deltas, text: await result.text };
}

describe('the OpenAI stand-in with @ai-sdk/openai (4.x)', () => {
  it('the default model (Responses): strict tools get every field, null for "not given"', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const inputs: unknown[] = [];
    const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' })('gpt-4.1-mini');
    const result = await generate(model, findTool('strict', inputs));

    expect(result.text).toBe(FINAL);
    expect(standIn.requests.map((request) => request.path)).toEqual(['/responses', '/responses']);
    expect(inputs).toEqual([{ query: 'tents', limit: null }]);
    const [first, second] = standIn.views;
    expect(first?.tools.map((t) => [t.name, t.strict])).toEqual([['find', true]]);
    expect(first?.userMessages).toEqual(['Tents please']);
    // What the model was shown next: its call and the tool's result.
    expect(second?.calls).toEqual([
      { callId: 'call_0_0', name: 'find', args: { query: 'tents', limit: null } },
    ]);
    expect(second?.results).toEqual([
      { callId: 'call_0_0', name: 'find', text: '2 tents for "tents"', isError: false },
    ]);
    expect(standIn.schemaProblems).toEqual([]);
  });

  it('streams the Responses events (text deltas, tool calls)', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const inputs: unknown[] = [];
    const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' })('gpt-4.1-mini');
    const { deltas, text } = await stream(model, findTool('strict', inputs));

    expect(standIn.views.map((view) => view.stream)).toEqual([true, true]);
    expect(inputs).toEqual([{ query: 'tents', limit: null }]);
    expect(text).toBe(FINAL);
    expect(deltas.length).toBeGreaterThan(1);
  });

  it('Chat Completions (openai.chat), streamed', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const inputs: unknown[] = [];
    const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' }).chat('gpt-4.1-mini');
    const { text } = await stream(model, findTool('strict', inputs));

    expect(standIn.requests.map((request) => request.path)).toEqual([
      '/chat/completions',
      '/chat/completions',
    ]);
    expect(inputs).toEqual([{ query: 'tents', limit: null }]);
    expect(text).toBe(FINAL);
    expect(standIn.views[1]?.results[0]).toMatchObject({
      name: 'find',
      text: '2 tents for "tents"',
    });
  });

  it('refuses a strict tool OpenAI would refuse, with a 400 like OpenAI’s', async () => {
    standIn = await startOpenAiStandIn(SCRIPT);
    const tools = findTool('optional', []);
    (tools.find as { strict?: boolean }).strict = true;
    const model = createOpenAI({ baseURL: standIn.baseURL, apiKey: 'k' })('gpt-4.1-mini');

    await expect(generate(model, tools)).rejects.toThrow(
      /Invalid schema: find \(root\)\.limit: must be in required/,
    );
    expect(standIn.schemaProblems).toContain('find (root).limit: must be in required');
    expect(standIn.views).toEqual([]);
  });
});

describe('the Anthropic stand-in with @ai-sdk/anthropic', () => {
  const model = (baseURL: string) => createAnthropic({ baseURL, apiKey: 'k' })('claude-sonnet-4-5');

  it('Claude leaves optional fields out (no nulls), JSON and streamed', async () => {
    for (const run of [generate, stream]) {
      standIn = await startAnthropicStandIn(SCRIPT);
      const inputs: unknown[] = [];
      const result = await run(model(standIn.baseURL), findTool('optional', inputs));
      expect(result.text).toBe(FINAL);
      expect(inputs).toEqual([{ query: 'tents' }]);
      expect(standIn.views[1]?.results).toEqual([
        { callId: 'call_0_0', name: 'find', text: '2 tents for "tents"', isError: false },
      ]);
      expect(standIn.views.map((view) => view.stream)).toEqual(
        run === stream ? [true, true] : [false, false],
      );
      await standIn.close();
    }
    standIn = undefined;
  });

  it('refuses a tool name Anthropic refuses', async () => {
    standIn = await startAnthropicStandIn(SCRIPT);
    const tools = { 'find tents': findTool('optional', []).find! };
    await expect(generate(model(standIn.baseURL), tools)).rejects.toThrow(
      /find tents: invalid tool name/,
    );
    expect(standIn.schemaProblems).toEqual(['find tents: invalid tool name']);
  });
});

describe('the Gemini stand-in with @ai-sdk/google', () => {
  const model = (baseURL: string) =>
    createGoogleGenerativeAI({ baseURL, apiKey: 'k' })('gemini-2.5-flash');

  it('Gemini leaves optional fields out, generateContent and streamGenerateContent', async () => {
    for (const run of [generate, stream]) {
      standIn = await startGoogleStandIn(SCRIPT);
      const inputs: unknown[] = [];
      const result = await run(model(standIn.baseURL), findTool('optional', inputs));
      expect(result.text).toBe(FINAL);
      expect(inputs).toEqual([{ query: 'tents' }]);
      expect(standIn.views[1]?.results).toEqual([
        { callId: 'find', name: 'find', text: '2 tents for "tents"', isError: false },
      ]);
      const paths = standIn.requests.map((request) => request.path.replace(/\?.*/, ''));
      const method = run === stream ? 'streamGenerateContent' : 'generateContent';
      expect(paths).toEqual([
        `/models/gemini-2.5-flash:${method}`,
        `/models/gemini-2.5-flash:${method}`,
      ]);
      await standIn.close();
    }
    standIn = undefined;
  });

  it('refuses a schema keyword Gemini refuses', async () => {
    standIn = await startGoogleStandIn(SCRIPT);
    const tools = {
      find: tool({
        description: 'Find products',
        inputSchema: jsonSchema<{ query: string }>({
          type: 'object',
          properties: { query: { type: 'string', not: { const: '' } } },
          required: ['query'],
        }),
      }),
    };
    await expect(generate(model(standIn.baseURL), tools)).rejects.toThrow(/not is not supported/);
    expect(standIn.schemaProblems).toEqual(['find.query: not is not supported']);
  });
});

describe('the OpenAI-compatible stand-in with @ai-sdk/openai-compatible', () => {
  it('an open model leaves optional fields out, even of a strict tool', async () => {
    standIn = await startOpenAiCompatibleStandIn(SCRIPT);
    const inputs: unknown[] = [];
    const model = createOpenAICompatible({
      name: 'local',
      baseURL: standIn.baseURL,
      apiKey: 'k',
    }).chatModel('qwen3');
    const tools = findTool('optional', inputs);
    const result = await generate(model, tools);

    expect(result.text).toBe(FINAL);
    expect(inputs).toEqual([{ query: 'tents' }]);
    expect(standIn.requests[0]?.path).toBe('/chat/completions');
  });
});
