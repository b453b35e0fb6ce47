import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plain, RespConnection } from './resp.js';

/** Whether the Debian `redis-server` binary is on PATH. */
export const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

/**
 * Skip the Redis tests only on a developer machine without redis-server; in CI (where
 * `.ci/run` installs it) a missing binary must fail the run instead of hiding it.
 */
export const skipRedisTests = !redisServerInstalled && !process.env.CI;

/**
 * A throwaway redis-server on a free loopback port, with its own temp dir, no persistence
 * and a random password (so tests can check that it never shows in an error).
 */
export interface RedisServer {
  /** `redis://:<password>@127.0.0.1:<port>` */
  url: string;
  port: number;
  password: string;
  /** Runs a command on a connection of its own (not the client under test). */
  command(...args: string[]): Promise<unknown>;
  /** SIGKILL, as a crash or an OOM kill would: no goodbye to connected clients. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted). */
  restart(): Promise<void>;
  /**
   * SIGSTOP: the server keeps its connections but reads nothing, as a server stuck in a
   * long command or a swapping host does; commands already written wait in its socket.
   */
  pause(): void;
  /** SIGCONT after {@link pause}: it reads (and runs) whatever was written meanwhile. */
  resume(): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function ping(port: number, password: string): Promise<boolean> {
  const connection = await RespConnection.open(port, password).catch(() => undefined);
  if (!connection) return false;
  try {
    const reply = await connection.send(['PING']);
    return reply.type === 'status' && reply.value === 'PONG';
  } catch {
    return false;
  } finally {
    connection.close();
  }
}

async function waitUntilReady(port: number, password: string, child: ChildProcess) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (await ping(port, password)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('redis-server did not become ready within 10 s');
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** @param extraArgs More `redis-server` arguments, e.g. `['--rename-command', 'SET', 'X']`. */
export async function startRedisServer(extraArgs: readonly string[] = []): Promise<RedisServer> {
  if (!redisServerInstalled) {
    throw new Error('redis-server is not installed (apt-get install redis-server); required in CI');
  }
  const dir = await mkdtemp(join(tmpdir(), 'catalogkit-redis-'));
  const port = await freePort();
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
  args.push('--save', '', '--appendonly', 'no', '--requirepass', password, ...extraArgs);
  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    child = started;
    try {
      await waitUntilReady(port, password, started);
    } catch (error) {
      started.kill('SIGKILL');
      throw error;
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running) return;
    child = undefined;
    const done = exited(running);
    running.kill('SIGCONT'); // a paused server would not act on SIGTERM
    running.kill(signal);
    await done;
  };
  await launch();
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    port,
    password,
    async command(...command: string[]) {
      const connection = await RespConnection.open(port, password);
      try {
        return plain(await connection.send(command));
      } finally {
        connection.close();
      }
    },
    kill: () => halt('SIGKILL'),
    restart: launch,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async stop() {
      await halt('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}
