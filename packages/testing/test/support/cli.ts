import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from '../../src/index.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));

/** What a CLI run left: its exit code and output. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from source (as the examples' `pnpm test` does) to its end. */
export function runCli(args: string[]): Promise<CliRun> {
  const child = spawn(tsx, ['--conditions=@catalogkit/source', 'src/cli.ts', ...args], {
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
