import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SCENARIOS } from '../../src/index.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const workspaceDir = join(packageDir, '../..');

/** The workspace packages the CLI is bundled with (from their sources), and its own. */
const BUNDLED = ['testing', 'core', 'emulator', 'links'];
/** Its npm dependencies, loaded from the package as an installed CLI loads them. */
const EXTERNAL = ['tsx', 'remark-gfm', 'remark-parse', 'unified'];

/** What the bundle is built from: the packages' sources and manifests, and the lockfile. */
function cliSources(): string[] {
  return [
    ...BUNDLED.flatMap((name) => {
      const dir = `packages/${name}/src`;
      return readdirSync(join(workspaceDir, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .sort()
        .map((file) => join(dir, file));
    }),
    ...BUNDLED.map((name) => `packages/${name}/package.json`),
    'pnpm-lock.yaml',
  ];
}

let built: Promise<string> | undefined;

/**
 * src/cli.ts and the workspace sources it imports bundled into one ES module, as tsup ships
 * it, built once per change of those sources: cached under their hash inside the package's
 * node_modules (so its dependencies resolve from there, as an installed CLI's do), shared by
 * every test file and run until a source changes. Through tsx each run spent 2-3 s of CPU
 * compiling the same sources. The agent modules still load through tsx, as in a project.
 */
function cliEntry(): Promise<string> {
  built ??= (async () => {
    const hash = createHash('sha256');
    for (const file of cliSources()) {
      hash
        .update(`${file}\0`)
        .update(readFileSync(join(workspaceDir, file)))
        .update('\0');
    }
    const dir = join(packageDir, 'node_modules/.cache', `cli-${hash.digest('hex').slice(0, 16)}`);
    const outfile = join(dir, 'cli.mjs');
    if (existsSync(outfile)) return outfile;
    mkdirSync(dir, { recursive: true });
    // Written beside, then renamed: a file running in parallel never starts half a bundle.
    const partial = join(dir, `cli.${process.pid}.${Date.now()}.mjs`);
    await build({
      entryPoints: [join(packageDir, 'src/cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      conditions: ['@catalogkit/source'],
      external: EXTERNAL,
      outfile: partial,
      logLevel: 'warning',
      // Some bundled dependencies are CommonJS: their `require` calls need one in the module.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    renameSync(partial, outfile);
    return outfile;
  })();
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
