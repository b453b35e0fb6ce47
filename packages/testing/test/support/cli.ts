import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOnce, sourcesOf } from '../../../integration/test/support/bundle-once.js';
import { SCENARIOS } from '../../src/index.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** The workspace packages the CLI is bundled with (from their sources), and its own. */
const BUNDLED = ['testing', 'core', 'emulator', 'links'];

let built: Promise<string> | undefined;

/**
 * src/cli.ts and the workspace sources it imports bundled into one ES module, as tsup ships
 * it, once per change of those sources, cached inside the package's node_modules so its npm
 * dependencies resolve from there, as an installed CLI's do. The agent modules still load
 * through tsx, as in a project.
 */
function cliEntry(): Promise<string> {
  built ??= bundleOnce({
    entry: join(packageDir, 'src/cli.ts'),
    sources: sourcesOf(
      BUNDLED.map((name) => `packages/${name}/src`),
      BUNDLED.map((name) => `packages/${name}/package.json`),
    ),
    cacheDir: join(packageDir, 'node_modules/.cache'),
    name: 'cli.mjs',
    external: ['tsx', 'remark-gfm', 'remark-parse', 'unified'],
  });
  return built;
}

/** What a CLI run left: its exit code and output. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI, built from source, to its end; with the source condition, so the agent's
 * own imports of the workspace packages (`@catalogkit/ai-sdk`, ...) load their sources.
 */
export async function runCli(args: string[]): Promise<CliRun> {
  const entry = await cliEntry();
  const child = spawn(process.execPath, ['--conditions=@catalogkit/source', entry, ...args], {
    cwd: packageDir,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** One row of the report table. */
export interface ReportRow {
  id: string;
  result: string;
  problems: string;
}

/** The table's scenario rows: id, result and what went wrong. */
export function reportRows(stdout: string): ReportRow[] {
  return stdout
    .split('\n')
    .map((line) => line.split(' | '))
    .filter(([id]) => SCENARIOS.some((scenario) => scenario.id === id?.trim()))
    .map(([id, result, ...problems]) => ({
      id: id!.trim(),
      result: result!.trim(),
      problems: problems.join(' | '),
    }));
}

/** The table's rows as [scenario id, result]. */
export function rows(stdout: string): [string, string][] {
  return reportRows(stdout).map((row) => [row.id, row.result]);
}
