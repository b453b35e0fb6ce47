import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundleOnce, sourcesOf } from '../../../integration/test/support/bundle-once.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

let built: Promise<string> | undefined;

/**
 * The bin (src/cli.ts, through core's sources) bundled into one ES module, as tsup ships it,
 * once per change of its sources, cached in the temp folder: the tests start dozens.
 */
export function binEntry(): Promise<string> {
  built ??= bundleOnce({
    entry: join(packageDir, 'src/cli.ts'),
    sources: sourcesOf(
      ['packages/mcp/src', 'packages/core/src'],
      ['packages/mcp/package.json', 'packages/core/package.json'],
    ),
    cacheDir: join(tmpdir(), 'catalogkit-mcp-bin'),
    name: 'cli.mjs',
  });
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
