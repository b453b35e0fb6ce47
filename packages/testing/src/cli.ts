/*
 * The `catalogkit-testing` command: `npx @catalogkit/testing check ./my-agent.ts` runs every
 * scenario against the agent the module exports, prints the report table, and exits 1 when a
 * scenario fails (2 when the command or the module is wrong).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runScenarios } from './run/check-agent.js';
import { FRAMEWORKS } from './run/frameworks.js';
import { importFrom } from './run/load.js';
import { formatReport } from './run/report.js';
import { SCENARIOS } from './scenarios/catalog.js';
import type { AgentFunction, Framework, Scenario } from './scenarios/types.js';

const USAGE = `Usage: catalogkit-testing check <agent module> [--scenario <id>]... [--timeout <ms>]

Runs catalogkit's scenarios (a shopping run, an update of unknown outcome, a 429, a 402,
a dropped connection, a key echoed by the service, a link copied wrong) against your agent,
offline: the catalog emulator and a stand-in of OpenAI on loopback.

The module's default export is your agent: async (prompt, { model, tools, clientOptions,
approve }) => ({ text }). \`export const framework = 'langchain'\` (or 'openai-agents';
default 'ai-sdk') says which model and tools it gets; they come from your project's own
packages (@ai-sdk/openai + @catalogkit/ai-sdk, @langchain/openai + @catalogkit/langchain,
@openai/agents + @catalogkit/openai-agents).

Scenarios: ${SCENARIOS.map((scenario) => scenario.id).join(', ')}
`;

/** A mistake in the command or the module: exit 2 with the message. */
class UsageError extends Error {}

interface Command {
  file: string;
  scenarios: readonly Scenario[];
  timeoutMs: number | undefined;
}

function scenarioNamed(id: string): Scenario {
  const scenario = SCENARIOS.find((candidate) => candidate.id === id);
  if (!scenario) throw new UsageError(`Unknown scenario ${id}`);
  return scenario;
}

function parseCommand(args: readonly string[]): Command {
  const [command, file, ...rest] = args;
  if (command !== 'check' || !file) throw new UsageError(USAGE);
  const picked: Scenario[] = [];
  let timeoutMs: number | undefined;
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--scenario') picked.push(scenarioNamed(value));
    else if (flag === '--timeout' && Number(value) > 0) timeoutMs = Number(value);
    else throw new UsageError(`Unknown option ${flag} ${value}`);
  }
  return { file: resolve(file), scenarios: picked.length > 0 ? picked : SCENARIOS, timeoutMs };
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
  const module = await importModule(file);
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

async function check(args: readonly string[]): Promise<number> {
  const command = parseCommand(args);
  const { agent, framework } = await loadAgent(command.file);
  process.stderr.write(
    `Checking ${command.file} (${framework}), ${command.scenarios.length} scenarios...\n`,
  );
  const results = await runScenarios(agent, {
    framework,
    load: importFrom(command.file),
    scenarios: command.scenarios,
    timeoutMs: command.timeoutMs,
  });
  process.stdout.write(formatReport(results));
  return results.every((result) => result.passed) ? 0 : 1;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
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
