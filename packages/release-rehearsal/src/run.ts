import { type ChildProcess, spawn } from 'node:child_process';

/** Options of {@link run}. */
export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Kills the command after this long (default 10 minutes). */
  timeoutMs?: number;
}

/** What a finished command printed. */
export interface RunResult {
  stdout: string;
  stderr: string;
}

/** A command that failed, with the end of its output (commands here never print secrets). */
export class CommandError extends Error {
  /** Everything the command printed (the message holds only its end). */
  readonly output: string;
  constructor(command: string, detail: string, output: string) {
    super(`${command} ${detail}\n${output.split('\n').slice(-40).join('\n')}`);
    this.name = 'CommandError';
    this.output = output;
  }
}

/**
 * The environment for a command of the rehearsal: this process's, without the `npm_*` and
 * `pnpm_*` variables the package manager running the rehearsal set (`npm_config_registry`
 * among them, which would beat every project's .npmrc), plus `extra`.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)),
  );
  return { ...env, ...extra };
}

/** Runs a command to completion; rejects with its output when it exits non-zero. */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const shown = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CommandError(shown, `could not start: ${error.message}`, ''));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new CommandError(shown, `exited with ${code ?? signal}`, `${stdout}\n${stderr}`));
    });
  });
}

/** A long-running process (registry, emulator) and the output it printed so far. */
export interface Background {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a long-running command and resolves once its output matches `ready`
 * (rejects if it exits first or takes longer than `timeoutMs`).
 */
export function startBackground(
  command: string,
  args: string[],
  options: RunOptions & { ready: RegExp },
): Promise<Background> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so stop() also ends what npx started under it
  });
  let output = '';
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new CommandError(command, 'did not become ready', output));
    }, options.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output: () => output, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new CommandError(command, `exited with ${code} before it was ready`, output));
    });
  });
}

/** Runs `tasks` with at most `limit` at a time, keeping their order in the results. */
export async function inPool<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
