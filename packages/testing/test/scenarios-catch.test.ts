import { createCatalogTools, finalizeResultBuyLinks } from '@catalogkit/ai-sdk';
import { generateText, isStepCount, jsonSchema, type LanguageModel, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  AgentCheckError,
  type AgentContext,
  type AgentFunction,
  checkAgent,
  droppedConnection,
  keyEchoed,
  linkCopiedWrong,
  paymentChallenge,
  rateLimited,
  runScenario,
  type Scenario,
  shoppingRun,
  updateOutcomeUnknown,
} from '../src/index.js';
import { aiSdkAgent } from './support/agents.js';

type Context = AgentContext<LanguageModel, ToolSet>;

/** An AI SDK agent with the tools given, approving changes with the shopper (unless told not to ask). */
async function generate(prompt: string, context: Context, tools: ToolSet, ask = true) {
  const toolApproval = {
    update_collection: async (input: unknown) => {
      const { approved } = await context.approve({ toolName: 'update_collection', input });
      return { type: approved ? ('approved' as const) : ('denied' as const) };
    },
  };
  return generateText({
    model: context.model,
    tools,
    prompt,
    stopWhen: isStepCount(8),
    ...(ask ? { toolApproval } : {}),
  });
}

/** Each tool's execute wrapped by `wrap`. */
function wrapped(tools: ToolSet, wrap: (name: string, execute: Execute) => Execute): ToolSet {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      { ...tool, execute: wrap(name, tool.execute as Execute) },
    ]),
  );
}
type Execute = (input: unknown, options: unknown) => Promise<unknown>;

/** Shows the model's text as it is: buy links neither resolved nor checked. */
/** Opts into inline buy links and shows the model's text as is, miscopies included. */
const rawText: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = createCatalogTools({ clientOptions: context.clientOptions, buyLinks: 'inline' });
  return { text: (await generate(prompt, context, tools as ToolSet)).text };
};

/** Builds its own tools in reference mode and forgets to resolve the references. */
const unresolvedReferences: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = createCatalogTools({ clientOptions: context.clientOptions, buyLinks: 'reference' });
  return { text: (await generate(prompt, context, tools as ToolSet)).text };
};

/** Builds its tools without approval, so changes run without the shopper's consent. */
const noApproval: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = createCatalogTools({ clientOptions: context.clientOptions, needsApproval: false });
  return { text: (await generate(prompt, context, tools as ToolSet, false)).text };
};

/** Builds fresh tools for every call, so the memory of sent updates is lost. */
const freshToolsPerCall: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = wrapped(context.tools, (name) => (input, options) => {
    const fresh = createCatalogTools({ clientOptions: context.clientOptions }) as ToolSet;
    return (fresh[name]!.execute as Execute)(input, options);
  });
  return { text: (await generate(prompt, context, tools)).text };
};

/** Retries every failed tool call four more times. */
const retryingTools: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = wrapped(context.tools, (_name, execute) => async (input, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await execute(input, options);
      } catch (error) {
        if (attempt >= 4) throw error;
      }
    }
  });
  return { text: (await generate(prompt, context, tools)).text };
};

/**
 * Retries on a fresh client each time, as a handler that builds its tools per call does: the
 * client that met the 429 waits out its pause instead of sending, so only new clients'
 * retries reach the limited service.
 */
const retryingFreshClients: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = wrapped(context.tools, (name, execute) => async (input, options) => {
    for (let attempt = 0; ; attempt++) {
      try {
        if (attempt === 0) return await execute(input, options);
        const fresh = createCatalogTools({ clientOptions: context.clientOptions }) as ToolSet;
        const retry = fresh[name]?.execute;
        if (!retry) throw new Error(`no ${name}`);
        return await (retry as Execute)(input, options);
      } catch (error) {
        if (attempt >= 4) throw error;
      }
    }
  });
  return { text: (await generate(prompt, context, tools)).text };
};

/** A client that never retries, so one dropped connection loses the search. */
const noRetries: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const tools = createCatalogTools({ clientOptions: { ...context.clientOptions, maxRetries: 0 } });
  return { text: (await generate(prompt, context, tools as ToolSet)).text };
};

/** Replaces search_websites with a hand-written tool that hands the model the service's raw answer. */
const handWrittenTool: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const { apiKey, baseUrl } = context.clientOptions;
  const searchWebsites = {
    description: 'Find retailers',
    inputSchema: jsonSchema<{ query: string; country?: string }>({
      type: 'object',
      properties: { query: { type: 'string' }, country: { type: 'string' } },
      required: ['query'],
    }),
    execute: async ({ query }: { query: string }) => {
      const url = `${baseUrl}/v1/websites/search?query=${encodeURIComponent(query)}`;
      return (await fetch(url, { headers: { 'x-api-key': apiKey } })).text();
    },
  };
  const tools = { ...context.tools, search_websites: searchWebsites } as ToolSet;
  return { text: finalizeResultBuyLinks(await generate(prompt, context, tools)).text };
};

/** Pastes the raw tool outputs into the answer. */
const pastesToolOutput: AgentFunction<LanguageModel, ToolSet> = async (prompt, context) => {
  const result = await generate(prompt, context, context.tools);
  const outputs = result.steps.flatMap((step) =>
    step.toolResults.map((toolResult) => toolResult.output),
  );
  return { text: `${result.text}\n\nDetails: ${JSON.stringify(outputs)}` };
};

const cases: [Scenario, string, AgentFunction<LanguageModel, ToolSet>, RegExp][] = [
  [
    shoppingRun,
    'references left unresolved',
    unresolvedReferences,
    /is shown where its buy link belongs/,
  ],
  [updateOutcomeUnknown, 'tools without approval', noApproval, /ran without approval/],
  [
    updateOutcomeUnknown,
    'fresh tools per call',
    freshToolsPerCall,
    /holds the clause "product_ids \S+" 2 times/,
  ],
  [
    rateLimited,
    'a tool wrapper that retries on fresh clients',
    retryingFreshClients,
    /the rate-limited website search: 5 requests/,
  ],
  [
    paymentChallenge,
    'a tool wrapper that retries',
    retryingTools,
    /the challenged search: 5 requests/,
  ],
  [droppedConnection, 'a client that never retries', noRetries, /expected at least 1/],
  [
    keyEchoed,
    'a hand-written tool with the raw answer',
    handWrittenTool,
    /the secret ck_t… \(30 characters\) is in model request 2/,
  ],
  [
    shoppingRun,
    'the raw tool output pasted',
    pastesToolOutput,
    /"…?https:\/\/go\.catalogkit\.test\/r\/\S+( \(a link run into \d+ characters of other text\))? is not a buy link/,
  ],
  [linkCopiedWrong, 'the model’s text shown as is', rawText, /is not a buy link the catalog gave/],
];

describe('each scenario catches the mistake it is about', () => {
  for (const [scenario, mistake, agent, problem] of cases) {
    it(`${scenario.id}: ${mistake}`, async () => {
      const result = await runScenario(scenario, agent);
      expect(result.passed).toBe(false);
      expect(result.problems.join('\n')).toMatch(problem);
      // The same agent passes what its mistake does not touch.
      expect((await runScenario(shoppingRun, aiSdkAgent)).passed).toBe(true);
    });
  }
});

describe('runScenario and checkAgent', () => {
  it('report an agent that throws, or answers without text, instead of throwing', async () => {
    const throws: AgentFunction = async () => {
      throw new TypeError('model is not a function');
    };
    expect((await runScenario(shoppingRun, throws)).problems).toContain(
      'the agent gave no answer: TypeError: model is not a function',
    );
    const noText = (async () => 'Here you go') as unknown as AgentFunction;
    expect((await runScenario(shoppingRun, noText)).problems).toContain(
      'the agent gave no answer: the agent returned string, not { text }',
    );
    const slow: AgentFunction = () => new Promise(() => {});
    expect((await runScenario(shoppingRun, slow, { timeoutMs: 200 })).problems).toContain(
      'the agent gave no answer: no answer within 200 ms',
    );
  });

  it('checkAgent throws an AgentCheckError with the report table when a scenario fails', async () => {
    const error = await checkAgent(rawText, { scenarios: [shoppingRun, linkCopiedWrong] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentCheckError);
    const { message, results } = error as AgentCheckError;
    expect(results.map((result) => [result.id, result.passed])).toEqual([
      ['shopping-run', true],
      ['link-copied-wrong', false],
    ]);
    expect(message).toMatch(
      /^checkAgent: scenarios failed\nscenario +\| result \| what went wrong\n/,
    );
    expect(message).toMatch(
      /\nlink-copied-wrong +\| FAIL +\| "https:\/\/go\.catalogkit\.test\/r\/.* is not a buy link/,
    );
    expect(message).toContain('1 of 2 scenarios passed');
    expect(await checkAgent(aiSdkAgent, { scenarios: [shoppingRun] })).toHaveLength(1);
  });
});
