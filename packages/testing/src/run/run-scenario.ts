import type { ApprovalRecord } from '../assertions/changes.js';
import { maskSecrets } from '../scenarios/expectations.js';
import type {
  AgentAnswer,
  AgentFunction,
  Approve,
  Framework,
  Scenario,
  ScenarioResult,
  ScenarioRun,
} from '../scenarios/types.js';
import { type CatalogService, startCatalogService } from '../service/catalog-service.js';
import { startOpenAiStandIn } from '../stand-ins/openai.js';
import type { RunningStandIn } from '../stand-ins/server.js';
import { setUpFramework } from './frameworks.js';
import { importFromKit, type ModuleLoader } from './load.js';

/** How to run scenarios against an agent. */
export interface RunScenarioOptions {
  /** The framework the agent is written for (default `'ai-sdk'`): which model and tools it gets. */
  framework?: Framework;
  /**
   * Loads the framework's packages (default: imported from the kit's place, i.e. your
   * project's copies, which are the kit's optional peer dependencies).
   */
  load?: ModuleLoader;
  /** How long the agent may take per scenario (default 60 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The answer's `text`, or why the value is no answer. */
function checkAnswer(value: unknown): { answer?: AgentAnswer; failure?: string } {
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AgentAnswer).text === 'string'
  ) {
    return { answer: value as AgentAnswer };
  }
  return { failure: `the agent returned ${value === null ? 'null' : typeof value}, not { text }` };
}

async function answerWithin(
  run: Promise<unknown>,
  timeoutMs: number,
): Promise<{ answer?: AgentAnswer; failure?: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ failure: string }>((resolve) => {
    timer = setTimeout(() => resolve({ failure: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([
      run.then(checkAnswer, (error: unknown) => ({ failure: describeError(error) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The shopper: approves every change, and records each decision. */
function approver(approvals: ApprovalRecord[]): Approve {
  return async (call) => {
    approvals.push({ toolName: call.toolName, input: call.input, approved: true });
    return { approved: true };
  };
}

async function play<Model, Tools>(
  scenario: Scenario,
  agent: AgentFunction<Model, Tools>,
  options: RunScenarioOptions,
  service: CatalogService,
  model: RunningStandIn,
): Promise<ScenarioRun> {
  const approvals: ApprovalRecord[] = [];
  const run: ScenarioRun = { service, model, answer: undefined, failure: undefined, approvals };
  let setup: Awaited<ReturnType<typeof setUpFramework>>;
  try {
    setup = await setUpFramework(options.framework ?? 'ai-sdk', {
      baseURL: model.baseURL,
      clientOptions: service.clientOptions,
      load: options.load ?? importFromKit,
    });
  } catch (error) {
    return {
      ...run,
      failure: `could not set up ${options.framework ?? 'ai-sdk'}: ${describeError(error)}`,
    };
  }
  // The framework's model and tools, as the agent's own packages made them.
  const context = {
    model: setup.model as Model,
    tools: setup.tools as Tools,
    clientOptions: service.clientOptions,
    approve: approver(approvals),
  };
  const started = Promise.resolve().then(() => agent(scenario.prompt, context));
  return { ...run, ...(await answerWithin(started, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)) };
}

/**
 * Runs one scenario: starts the emulator (behind a recording proxy) with the scenario's
 * faults and a stand-in of OpenAI playing its model, hands your agent a model and tools for
 * its framework, and checks what must hold. Never throws for a failing agent: the result
 * lists the problems (`checkAgent` throws).
 */
export async function runScenario<Model = unknown, Tools = unknown>(
  scenario: Scenario,
  agent: AgentFunction<Model, Tools>,
  options: RunScenarioOptions = {},
): Promise<ScenarioResult> {
  const started = performance.now();
  const service = await startCatalogService(scenario.service);
  let model: RunningStandIn | undefined;
  try {
    scenario.arm?.(service);
    model = await startOpenAiStandIn(scenario.model(service));
    const run = await play(scenario, agent, options, service, model);
    const secrets = service.secrets();
    const problems = scenario.expect(run).map((problem) => maskSecrets(problem, secrets));
    const durationMs = Math.round(performance.now() - started);
    return {
      id: scenario.id,
      title: scenario.title,
      passed: problems.length === 0,
      problems,
      durationMs,
    };
  } finally {
    await model?.close();
    await service.close();
  }
}
