/*
 * The command line of `catalogkit-testing`: what it asks for, or the usage error (exit 2)
 * naming what is wrong. Kept apart from the CLI's process so its rules are tested directly.
 */
import { resolve } from 'node:path';
import { allowedEntries } from '../assertions/links.js';
import { SCENARIOS } from '../scenarios/catalog.js';
import type { Scenario } from '../scenarios/types.js';
import type { ReporterName } from './report.js';

export const USAGE = `Usage: catalogkit-testing check <agent module> [--scenario <id>]... [--timeout <ms>]
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
export class UsageError extends Error {}

export interface Command {
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

export function scenarioNamed(id: string): Scenario {
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

export function parseCommand(args: readonly string[]): Command {
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
