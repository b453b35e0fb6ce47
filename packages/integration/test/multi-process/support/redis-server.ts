import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BINARY = '/usr/bin/redis-server';

/** Whether redis-server is installed; in CI a missing one fails the suite instead. */
export const redisServerInstalled = spawnSync(BINARY, ['--version']).status === 0;

/**
 * A redis-server of the suite's own on a free loopback port. Persistent (append-only file,
 * fsync on every write) like a production Redis, so `kill()` (SIGKILL) and `restart()` on
 * the same port and directory lose nothing that was acknowledged: what the instances
 * claimed before the crash is still there after it.
 */
export interface SuiteRedis {
  url: string;
  /** SIGKILL, as a crash: no shutdown save. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /**
   * SIGSTOP: it hangs, connections open, reading nothing (a stalled or overloaded Redis).
   * Commands already sent run when `resume()` sends SIGCONT.
   */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Sends PING over a raw socket; true on +PONG (no client library, no reconnect logic). */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

async function waitUntilReady(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not answer PING within 15 s');
}

export async function startSuiteRedis(): Promise<SuiteRedis> {
  if (!redisServerInstalled) throw new Error(`${BINARY} is not installed`);
  const dir = await mkdtemp(join(tmpdir(), 'catalogkit-multi-process-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const exited = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => process.once('exit', () => resolve()));
  const launch = async () => {
    child = spawn(
      BINARY,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--protected-mode',
        'no',
      ],
      { stdio: 'ignore' },
    );
    await waitUntilReady(port, child);
  };
  const kill = async () => {
    if (!child) return;
    const running = child;
    child = undefined;
    running.kill('SIGKILL');
    await exited(running);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async stop() {
      child?.kill('SIGCONT');
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
