/*
 * The `catalogkit-testing` command: `npx @catalogkit/testing check ./my-agent.ts` runs every
 * scenario against the agent the module exports, prints the report (a table, JUnit XML or
 * JSON), and exits 1 when a scenario fails (2 when the command or the module is wrong).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { allowedEntries } from './assertions/links.js';
import { runScenarios } from './run/check-agent.js';
import { FRAMEWORKS } from './run/frameworks.js';
import { importFrom } from './run/load.js';
import {
  formatJsonReport,
  formatJUnitReport,
  formatReport,
  type ReporterName,
} from './run/report.js';
import { SCENARIOS } from './scenarios/catalog.js';
import type { AgentFunction, Framework, Scenario, ScenarioResult } from './scenarios/types.js';

const USAGE = `Usage: catalogkit-testing check <agent module> [--scenario <id>]... [--timeout <ms>]
         [--reporter table|junit|json] [--allow-link <url>]...

Runs catalogkit's scenarios (a shopping run, an update of unknown outcome, a 429, a 402,
a dropped connection, a key echoed by the service, a link copied wrong, a change the shopper
denies) against your agent, offline: the catalog emulator and a stand-in of OpenAI on loopback.

The module's default export is your agent: async (prompt, { model, tools, clientOptions,
approve }) => ({ text }). \`export const framework = 'langchain'\` (or 'openai-agents';
default 'ai-sdk') says which model and tools it gets; they come from your project's own
packages (@ai-sdk/openai + @catalogkit/ai-sdk, @langchain/openai + @catalogkit/langchain,
@openai/agents + @catalogkit/openai-agents).

--reporter   table (default), junit (JUnit XML for GitHub Actions, GitLab, Jenkins) or
             json, on stdout; with junit or json the table goes to stderr.
--allow-link your own link the answer may give besides buy links (an origin, or a URL and
             the paths under it); repeat for more.

Exit codes: 0 every scenario passed; 1 a scenario failed; 2 the command or the module is wrong.

Scenarios: ${SCENARIOS.map((scenario) => scenario.id).join(', ')}
`;

/** A mistake in the command or the module: exit 2 with the message. */
class UsageError extends Error {}

interface Command {
  file: string;
  scenarios: readonly Scenario[];
  timeoutMs: number | undefined;
  reporter: ReporterName;
  allowedLinks: string[];
}

const REPORTERS: readonly ReporterName[] = ['table', 'junit', 'json'];

function parseReporter(value: string): ReporterName {
  if (!REPORTERS.includes(value as ReporterName)) {
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}, got ${value}`);
  }
  return value as ReporterName;
}

function parseLink(value: string): string {
  try {
    allowedEntries([value]);
  } catch (error) {
    throw new UsageError(
      `--allow-link: ${(error as Error).message.replace(/^allowedLinks\[0\] /, '')}`,
    );
  }
  return value;
}

function scenarioNamed(id: string): Scenario {
  const scenario = SCENARIOS.find((candidate) => candidate.id === id);
  if (!scenario) throw new UsageError(`Unknown scenario ${id}`);
  return scenario;
}

/** Longest timeout a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

function parseTimeout(value: string): number {
  const ms = /^[0-9]{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms >= 1 && ms <= MAX_TIMEOUT_MS)) {
    throw new UsageError(
      `--timeout must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${value}`,
    );
  }
  return ms;
}

function parseCommand(args: readonly string[]): Command {
  const [command, file, ...rest] = args;
  if (command !== 'check' || !file) throw new UsageError(USAGE);
  const picked: Scenario[] = [];
  const allowedLinks: string[] = [];
  let timeoutMs: number | undefined;
  let reporter: ReporterName = 'table';
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--scenario') picked.push(scenarioNamed(value));
    else if (flag === '--timeout') timeoutMs = parseTimeout(value);
    else if (flag === '--reporter') reporter = parseReporter(value);
    else if (flag === '--allow-link') allowedLinks.push(parseLink(value));
    else throw new UsageError(`Unknown option ${flag} ${value}`);
  }
  const scenarios = picked.length > 0 ? picked : SCENARIOS;
  return { file: resolve(file), scenarios, timeoutMs, reporter, allowedLinks };
}

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
