/*
 * The `catalogkit-testing` command: `npx @catalogkit/testing check ./my-agent.ts` runs every
 * scenario against the agent the module exports, prints the report (a table, JUnit XML or
 * JSON), and exits 1 when a scenario fails (2 when the command or the module is wrong).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runScenarios } from './run/check-agent.js';
import { type Command, parseCommand, scenarioNamed, USAGE, UsageError } from './run/command.js';
import { FRAMEWORKS } from './run/frameworks.js';
import { importFrom } from './run/load.js';
import { formatJsonReport, formatJUnitReport, formatReport } from './run/report.js';
import type { AgentFunction, Framework, Scenario, ScenarioResult } from './scenarios/types.js';

/** TypeScript modules load through tsx (a dependency of the kit), as in your own tests. */
async function importModule(file: string): Promise<Record<string, unknown>> {
  if (/\.[cm]?tsx?$/.test(file)) {
    const { register } = await import('tsx/esm/api');
    register();
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

async function loadAgent(file: string): Promise<{ agent: AgentFunction; framework: Framework }> {
  let module: Record<string, unknown>;
  try {
    module = await importModule(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`could not load your agent module ${file}: ${reason}`);
  }
  const agent = module.default;
  if (typeof agent !== 'function') {
    throw new UsageError(
      `${file} has no default export function: export default async (prompt, { model, tools }) => ({ text })`,
    );
  }
  const framework = module.framework ?? 'ai-sdk';
  if (!FRAMEWORKS.includes(framework as Framework)) {
    throw new UsageError(
      `${file}: framework must be one of ${FRAMEWORKS.join(', ')}, got ${String(framework)}`,
    );
  }
  return { agent: agent as AgentFunction, framework: framework as Framework };
}

/** The hidden command the parent gives the child process that runs the agent. */
const CHILD_COMMAND = '__run-scenarios';
/** Time a scenario may take beyond the agent's timeout: the service, the model, settling. */
const SCENARIO_MARGIN_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * Time the child may take to start and load the agent module, apart from the scenarios'
 * deadline: tsx and an agent's framework took 8-12 s on a busy machine, longer than a short
 * `--timeout` plus the margin. A module stuck as it loads (a loop at import) is still stopped.
 */
const LOAD_DEADLINE_MS = 120_000;

/** What the child tells the parent, each message marked with the parent's nonce. */
type ChildMessage =
  | { nonce: string; type: 'ready'; framework: Framework }
  | { nonce: string; type: 'usage'; message: string }
  | { nonce: string; type: 'start'; id: string }
  | { nonce: string; type: 'result'; result: ScenarioResult };

/** What the parent tells the child: the nonce, the module and the scenarios to run. */
interface ChildOrder {
  nonce: string;
  file: string;
  ids: string[];
  timeoutMs: number | undefined;
  allowedLinks: string[];
}

/**
 * The child: loads the agent, runs the scenarios and sends each result over IPC. The send
 * function and the nonce are taken before the agent's code loads, so the agent cannot send
 * a result the parent would take (it never sees the nonce in anything it can read).
 */
async function runChild(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new UsageError(USAGE);
  const order = await new Promise<ChildOrder>((resolve) => process.once('message', resolve));
  const tell = (message: Omit<ChildMessage, 'nonce'>) =>
    new Promise<void>((resolve) => send({ ...message, nonce: order.nonce }, () => resolve()));
  let loaded: Awaited<ReturnType<typeof loadAgent>>;
  try {
    loaded = await loadAgent(order.file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await tell({ type: 'usage', message } as Omit<ChildMessage, 'nonce'>);
    return;
  }
  await tell({ type: 'ready', framework: loaded.framework } as Omit<ChildMessage, 'nonce'>);
  for (const id of order.ids) {
    await tell({ type: 'start', id } as Omit<ChildMessage, 'nonce'>);
    const [result] = await runScenarios(loaded.agent, {
      framework: loaded.framework,
      load: importFrom(order.file),
      scenarios: [scenarioNamed(id)],
      timeoutMs: order.timeoutMs,
      allowedLinks: order.allowedLinks,
    });
    await tell({ type: 'result', result } as Omit<ChildMessage, 'nonce'>);
  }
}

function failed(scenario: Scenario, problem: string): ScenarioResult {
  return {
    id: scenario.id,
    title: scenario.title,
    passed: false,
    problems: [problem],
    durationMs: 0,
  };
}

interface ChildRun {
  results: ScenarioResult[];
  framework?: Framework;
  usage?: string;
}

/**
 * Runs scenarios in a child process until it ends: the child's output goes to stderr (the
 * agent's logs can never look like the report), a scenario that outlives its deadline (a
 * synchronous loop blocks the child's own timers) gets the child killed, and a child that
 * ends before its last result (the agent called process.exit) fails the scenario it ran.
 */
function runInChild(command: Command, scenarios: readonly Scenario[]): Promise<ChildRun> {
  const nonce = randomUUID();
  const child = fork(fileURLToPath(import.meta.url), [CHILD_COMMAND], { silent: true });
  child.stdout?.pipe(process.stderr, { end: false });
  child.stderr?.pipe(process.stderr, { end: false });
  const run: ChildRun = { results: [] };
  const deadlineMs = (command.timeoutMs ?? DEFAULT_TIMEOUT_MS) + SCENARIO_MARGIN_MS;
  let current: Scenario | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hung = false;
  const arm = (ms = deadlineMs) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, ms);
  };
  child.on('message', (raw: unknown) => {
    const message = raw as ChildMessage;
    if (typeof message !== 'object' || message === null || message.nonce !== nonce) return;
    if (message.type === 'usage') run.usage = message.message;
    else if (message.type === 'ready') {
      run.framework = message.framework;
      arm();
    } else if (message.type === 'start') {
      current = scenarios.find((scenario) => scenario.id === message.id);
      arm();
    } else if (message.type === 'result' && current) {
      run.results.push({ ...message.result, id: current.id, title: current.title });
      current = undefined;
      arm();
    }
  });
  arm(LOAD_DEADLINE_MS);
  child.send({
    nonce,
    file: command.file,
    ids: scenarios.map((scenario) => scenario.id),
    timeoutMs: command.timeoutMs,
    allowedLinks: command.allowedLinks,
  } satisfies ChildOrder);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (hung && run.framework === undefined && run.usage === undefined) {
        run.usage = `could not load your agent module ${command.file}: still loading after ${LOAD_DEADLINE_MS} ms (a loop at import?)`;
      }
      if (current) {
        run.results.push(
          failed(
            current,
            hung
              ? `the agent blocked the process for over ${deadlineMs} ms (a synchronous loop?): the scenario was stopped`
              : `the agent ended the process during the scenario (${signal ?? `exit code ${code}`})`,
          ),
        );
      }
      resolve(run);
    });
  });
}

/** The report on stdout in the chosen format; beside a machine format, the table on stderr. */
function writeReport(command: Command, results: readonly ScenarioResult[]): void {
  if (command.reporter === 'table') {
    process.stdout.write(formatReport(results));
    return;
  }
  process.stderr.write(formatReport(results));
  const suite = `catalogkit scenarios: ${relative(process.cwd(), command.file) || command.file}`;
  process.stdout.write(
    command.reporter === 'junit' ? formatJUnitReport(results, suite) : formatJsonReport(results),
  );
}

async function check(args: readonly string[]): Promise<number> {
  const command = parseCommand(args);
  const results: ScenarioResult[] = [];
  let announced = false;
  // A child that ends early has run some scenarios: the rest run in a new one.
  for (
    let attempt = 0;
    results.length < command.scenarios.length && attempt < command.scenarios.length;
    attempt++
  ) {
    const left = command.scenarios.slice(results.length);
    const run = await runInChild(command, left);
    if (run.usage !== undefined) throw new UsageError(run.usage);
    if (!announced && run.framework) {
      announced = true;
      process.stderr.write(
        `Checking ${command.file} (${run.framework}), ${command.scenarios.length} scenarios...\n`,
      );
    }
    if (run.results.length === 0) {
      // The child ended before a scenario started (the module ended the process as it loaded).
      results.push(
        ...left.map((scenario) =>
          failed(scenario, 'the agent module ended the process before the scenario ran'),
        ),
      );
    }
    results.push(...run.results);
  }
  writeReport(command, results);
  return results.every((result) => result.passed) ? 0 : 1;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args[0] === CHILD_COMMAND) {
    await runChild();
    return 0;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    return await check(args);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

// An agent may leave timers or sockets behind (SDK clients, keep-alive): the report is the end.
const code = await main();
process.stdout.write('', () => process.exit(code));
