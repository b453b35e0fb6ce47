import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));

/** The bin run from source (tsx, with the workspace's source condition). */
const BIN_ARGS = ['--conditions=@catalogkit/source', '--import', 'tsx', 'src/cli.ts'];

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
    args: [...BIN_ARGS, ...args],
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
export function runBin(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...BIN_ARGS, ...args], {
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
