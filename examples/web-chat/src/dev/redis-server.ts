/**
 * A throwaway `redis-server` for `pnpm chat --instances 2` when no `REDIS_URL` is given:
 * loopback only, a free port, stopped with the launcher. It runs the way the web chat's
 * shared state needs Redis to run in production: an append-only file synced on every write
 * (`appendfsync always`, in a temporary folder removed when it stops) and no eviction, so
 * nothing it has told an instance (an approval claimed, an update sent) is forgotten by a
 * crash and restart or to make room.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running throwaway redis-server. */
export interface SpawnedRedis {
  url: string;
  /** Stops it. */
  stop(): Promise<void>;
}

/** Why no redis-server could be started: the launcher tells the user what to do instead. */
export class RedisServerUnavailableError extends Error {
  override readonly name = 'RedisServerUnavailableError';
}

/** A port free right now on loopback (another process could take it first: rare, and retried). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Whether something answers Redis's PING with PONG on this port. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

async function waitUntilReady(
  port: number,
  child: ChildProcess,
  failed: () => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || failed()) return false;
    if (await pong(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    // A child that never started (no pid) has nothing to stop and never emits `exit`.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
}

/** The durability the shared state needs (see the module's comment); no RDB snapshots. */
const DURABLE = [
  ...['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
  ...['--maxmemory-policy', 'noeviction'],
];

/** One attempt on one free port: the server, or why it did not start. */
async function attempt(command: string, timeoutMs: number): Promise<SpawnedRedis | Error> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'webchat-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...DURABLE];
  const child = spawn(command, args, { stdio: 'ignore' });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const ready = await waitUntilReady(port, child, () => spawnError !== undefined, timeoutMs);
  const stopChild = stopper(child);
  const stop = async () => {
    await stopChild();
    rmSync(dir, { recursive: true, force: true });
  };
  if (!ready) {
    await stop();
    return spawnError ?? new Error('it did not answer PING');
  }
  // Never outlive the launcher, even when it exits without stopping it.
  const onExit = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      process.removeListener('exit', onExit);
      return stop();
    },
  };
}

/**
 * Starts `redis-server` (from PATH, or `command`) on a free loopback port; a port taken
 * meanwhile by another process is retried on another.
 * @throws RedisServerUnavailableError when it is not installed or does not start.
 */
export async function spawnRedisServer(
  options: { command?: string; timeoutMs?: number } = {},
): Promise<SpawnedRedis> {
  const command = options.command ?? 'redis-server';
  let lastError: Error | undefined;
  for (let tries = 0; tries < 3; tries++) {
    const started = await attempt(command, options.timeoutMs ?? 10_000);
    if (!(started instanceof Error)) return started;
    lastError = started;
    // Not installed: another port will not help.
    if ((started as NodeJS.ErrnoException).code === 'ENOENT') break;
  }
  throw new RedisServerUnavailableError(
    `${command} could not be started (${lastError?.message}). Install Redis, or set REDIS_URL to one you run.`,
  );
}
