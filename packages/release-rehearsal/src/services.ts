import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { startBackground } from './run.js';

/** Something the rehearsal started and stops at the end. */
export interface Service {
  stop(): Promise<void>;
}

/** The emulator a consumer's tool call talks to. */
export interface EmulatorService extends Service {
  /** CATALOG_BASE_URL, CATALOG_MCP_URL and CATALOG_API_KEY (the valid demo key). */
  env: Record<string, string>;
}

/**
 * Runs `npx @catalogkit/emulator@<version> --port 0` in an empty folder, as a user without
 * the package would, with npm pointed at the local registry; reads its URLs and demo key
 * from the `export CATALOG_...` lines it prints.
 */
export async function startEmulatorFromRegistry(
  dir: string,
  version: string,
  env: NodeJS.ProcessEnv,
): Promise<EmulatorService> {
  mkdirSync(dir, { recursive: true });
  const emulator = await startBackground(
    'npx',
    ['--yes', `@catalogkit/emulator@${version}`, '--port', '0'],
    {
      cwd: dir,
      env,
      ready: /export CATALOG_API_KEY=\S+/,
      timeoutMs: 300_000,
    },
  );
  const value = (name: string) =>
    new RegExp(`export ${name}=(\\S+)`).exec(emulator.output())?.[1] ?? '';
  return {
    env: {
      CATALOG_BASE_URL: value('CATALOG_BASE_URL'),
      CATALOG_MCP_URL: value('CATALOG_MCP_URL'),
      CATALOG_API_KEY: value('CATALOG_API_KEY'),
    },
    stop: emulator.stop,
  };
}

/** A throwaway redis-server, or why the Redis consumers cannot run here. */
export interface RedisOutcome {
  url?: string;
  service?: Service;
  skipReason?: string;
}

/** Starts Debian's redis-server on a free loopback port with no persistence, if installed. */
export async function startRedis(
  dir: string,
  freePort: () => Promise<number>,
): Promise<RedisOutcome> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    return {
      skipReason: 'redis-server is not installed (apt-get install redis-server; .ci/run does)',
    };
  }
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const server = await startBackground(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { cwd: dir, ready: /Ready to accept connections/ },
  );
  return { url: `redis://127.0.0.1:${port}`, service: server };
}
