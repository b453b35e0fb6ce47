import type { ApprovalRecord } from '../assertions/changes.js';
import { allowedEntries } from '../assertions/links.js';
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
  /**
   * Your own links the answer may give besides buy links (`https://help.example.com`, or a
   * path: `https://shop.example/faq`); see `assertBuyLinksVerified`. The retailer URLs of
   * `search_websites` results are always allowed.
   */
  allowedLinks?: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** What was thrown, as text, whatever it is (an object with no prototype, a throwing getter). */
export function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return `a value that cannot be shown as text (${Object.prototype.toString.call(error)})`;
  }
}

/** First wait after the answer, then each further wait while requests still arrive. */
const SETTLE_STEP_MS = 150;
/** The longest the kit waits for work the agent left running after it answered. */
const SETTLE_MAX_MS = 1_500;

/**
 * Waits until neither the service nor the model got a request for a short while (capped):
 * an agent may answer first and change data after (an un-awaited stream or `onFinish`).
 */
async function settle(service: CatalogService, model: RunningStandIn): Promise<void> {
  const seen = () => service.exchanges.length + model.requests.length;
  let count = -1;
  for (let waited = 0; waited < SETTLE_MAX_MS && count !== seen(); waited += SETTLE_STEP_MS) {
    count = seen();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
  }
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

/** The shopper: approves (or denies) every change, and records each decision and its time. */
function approver(approvals: ApprovalRecord[], shopper: Scenario['shopper']): Approve {
  return async (call) => {
    const approved = shopper !== 'denies';
    approvals.push({
      toolName: call?.toolName,
      input: call?.input,
      approved,
      at: performance.now(),
    });
    return approved ? { approved } : { approved, reason: 'The shopper declined this change.' };
  };
}

async function play<Model, Tools>(
  scenario: Scenario,
  agent: AgentFunction<Model, Tools>,
  options: RunScenarioOptions,
  service: CatalogService,
  model: RunningStandIn,
  serviceTools: readonly string[],
): Promise<ScenarioRun> {
  const approvals: ApprovalRecord[] = [];
  const run: ScenarioRun = {
    service,
    model,
    answer: undefined,
    failure: undefined,
    approvals,
    allowedLinks: options.allowedLinks ?? [],
  };
  let setup: Awaited<ReturnType<typeof setUpFramework>>;
  try {
    setup = await setUpFramework(options.framework ?? 'ai-sdk', {
      baseURL: model.baseURL,
      service: { clientOptions: service.clientOptions, serviceTools },
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
    serviceTools,
    approve: approver(approvals, scenario.shopper),
  };
  const started = Promise.resolve().then(() => agent(scenario.prompt, context));
  const outcome = await answerWithin(started, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  await settle(service, model);
  return { ...run, ...outcome };
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
  allowedEntries(options.allowedLinks ?? []);
  const service = await startCatalogService(scenario.service);
  let model: RunningStandIn | undefined;
  try {
    // Read before the scenario's faults: the tool set is the service's, whatever it then does.
    const serviceTools = await service.serviceTools();
    scenario.arm?.(service);
    model = await startOpenAiStandIn(scenario.model(service));
    const run = await play(scenario, agent, options, service, model, serviceTools);
    const secrets = service.secrets();
    let found: string[];
    try {
      found = scenario.expect(run);
    } catch (error) {
      found = [`the scenario's checks could not read the run: ${describeError(error)}`];
    }
    const problems = found.map((problem) => maskSecrets(problem, secrets));
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
