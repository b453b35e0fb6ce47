import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

const workspaceDir = join(packageDir, '../..');

/** What the bin is built from: its sources and core's, their manifests, the lockfile. */
function binSources(): string[] {
  const under = (dir: string) =>
    readdirSync(join(workspaceDir, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .map((name) => join(dir, name));
  return [
    ...under('packages/mcp/src'),
    ...under('packages/core/src'),
    'packages/mcp/package.json',
    'packages/core/package.json',
    'pnpm-lock.yaml',
  ];
}

let built: Promise<string> | undefined;

/**
 * The bin (src/cli.ts, through core's sources) bundled into one ES module, as tsup ships it,
 * built once per change of its sources: cached in the temp folder under their hash, so every
 * test file and every run until a source changes starts the same file with plain Node. Through
 * tsx each start spent seconds of CPU compiling the same sources, and the tests start dozens.
 */
export function binEntry(): Promise<string> {
  built ??= (async () => {
    const hash = createHash('sha256');
    for (const file of binSources()) {
      hash
        .update(`${file}\0`)
        .update(readFileSync(join(workspaceDir, file)))
        .update('\0');
    }
    const dir = join(tmpdir(), `catalogkit-mcp-bin-${hash.digest('hex').slice(0, 16)}`);
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
      outfile: partial,
      logLevel: 'warning',
      // Some dependencies are CommonJS: their `require` calls need one in the module.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    renameSync(partial, outfile);
    return outfile;
  })();
  return built;
}

/** Node's arguments that start the bin with `args`. */
export async function binArgs(args: readonly string[] = []): Promise<string[]> {
  return [await binEntry(), ...args];
}

/**
 * The bin as a host starts it: a separate process speaking MCP on stdio, configured only by
 * the environment (and `args`), connected to an SDK client with `clientOptions`.
 */
export async function startBin(
  env: Record<string, string>,
  { args = [], clientOptions }: { args?: string[]; clientOptions?: ClientOptions } = {},
): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: await binArgs(args),
    cwd: packageDir,
    env,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const client = new Client({ name: 'catalogkit-test-host', version: '1.0.0' }, clientOptions);
  await client.connect(transport);
  return { client, stderr };
}

/** How a run of the bin ended: its exit code (null when killed) and what it printed. */
export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the bin as a person would in a terminal, stdin left open: a bin that waits on stdin
 * instead of exiting is killed after `timeoutMs` and reported with code null.
 */
export async function runBin(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<BinRun> {
  const nodeArgs = await binArgs(args);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: packageDir,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
