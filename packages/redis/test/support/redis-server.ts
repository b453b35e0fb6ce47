import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** Whether the Debian `redis-server` binary is on PATH. */
export const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

/**
 * Skip the Redis tests only on a developer machine without redis-server; in CI (where
 * `.ci/run` installs it) a missing binary must fail the run instead of hiding it.
 */
export const skipRedisTests = !redisServerInstalled && !process.env.CI;

/** A throwaway redis-server on a free loopback port, with its own temp dir and no persistence. */
export interface RedisServer {
  url: string;
  port: number;
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

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const probe = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => undefined); // refused while starting: expected, retried below
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
  throw new Error('redis-server did not become ready within 10 s');
}

export async function startRedisServer(): Promise<RedisServer> {
  if (!redisServerInstalled) {
    throw new Error('redis-server is not installed (apt-get install redis-server); required in CI');
  }
  const dir = await mkdtemp(join(tmpdir(), 'catalogkit-redis-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
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
      'no',
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  try {
    await waitUntilReady(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
