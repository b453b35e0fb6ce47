/**
 * `pnpm chat --instances <n>`: the web chat as several processes sharing one Redis, behind
 * one URL. Starts (or uses `REDIS_URL`) a Redis, `n` instance processes on free loopback
 * ports, each with the same approval and session secrets and the proxy's origins, and a
 * round-robin proxy in front of them: consecutive requests go to different instances, so
 * whatever works here does not depend on one process's memory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { InstanceConfig, InstanceSettings } from './instance.js';
import { spawnRedisServer } from './redis-server.js';
import {
  type ProxiedRequest,
  type RunningProxy,
  startRoundRobinProxy,
} from './round-robin-proxy.js';

/** Options of {@link startInstances}. */
export interface StartInstancesOptions {
  /** How many instance processes (2 to 8). */
  count: number;
  catalog: InstanceConfig['catalog'];
  pageDir: string;
  /** A Redis to share; default a throwaway `redis-server` started here (needs it installed). */
  redisUrl?: string;
  /** The proxy's port (default 0: a free one) and address (default `127.0.0.1`). */
  port?: number;
  host?: string;
  /** Default: random, the same for every instance. */
  approvalSecret?: string;
  sessionSecret?: string;
  settings?: InstanceSettings;
  /** The module each instance process runs (default `instance-main.ts` next to this file). */
  entry?: string;
  /** Node's options for the instances (default this process's: the same TypeScript loader). */
  nodeArgs?: string[];
  /**
   * Added to the instances' environment, which is otherwise this process's minus
   * {@link CONFIGURATION_ENV} (the configuration, secrets included, goes over IPC instead).
   */
  env?: Record<string, string>;
  /** Lines the instances print to stderr (default: to this process's stderr, labelled). */
  onOutput?: (instance: number, line: string) => void;
  /** Told before the proxy passes each request on. */
  onRequest?: (proxied: ProxiedRequest) => void;
  /** How long an instance may take to start (default 60 s). */
  startTimeoutMs?: number;
}

/** The running set: the one URL, its proxy, the instances and the Redis they share. */
export interface RunningInstances {
  url: string;
  proxy: RunningProxy;
  instances: Array<{ url: string; pid: number }>;
  redis: { url: string; spawned: boolean };
  close(): Promise<void>;
}

const DEFAULT_ENTRY = fileURLToPath(new URL('./instance-main.ts', import.meta.url));

/** The model's settings an instance needs from the launcher's environment. */
const MODEL_ENV = ['OPENAI_API_KEY', 'OPENAI_MODEL', 'OPENAI_BASE_URL'] as const;

/**
 * Variables of the launcher's environment that the instances get in their configuration
 * (over IPC), and so not in their environment: the kernel keeps a process's environment
 * readable in `/proc/<pid>/environ` as long as it runs, whatever the process deletes.
 */
export const CONFIGURATION_ENV: readonly string[] = [
  'CATALOG_API_KEY',
  'CATALOG_BASE_URL',
  'CATALOG_MCP_URL',
  'REDIS_URL',
  'WEBCHAT_APPROVAL_SECRET',
  'WEBCHAT_SESSION_SECRET',
  ...MODEL_ENV,
];

/** This process's environment without {@link CONFIGURATION_ENV}, plus `extra`. */
function instanceEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of CONFIGURATION_ENV) delete env[name];
  return env;
}

/** The model's settings from this process's environment, for the configuration. */
function modelEnv(): Record<string, string> {
  return Object.fromEntries(
    MODEL_ENV.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  );
}

/** The origins the page is served from through the proxy. */
function proxyOrigins(host: string, port: number): string[] {
  const origins = [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
  if (host === '127.0.0.1') origins.push(`http://localhost:${port}`);
  return origins;
}

/** Resolves with the instance's URL once it prints `listening <url>`. */
function listening(child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`a web chat instance ${why}\n${stderr().slice(-2_000)}`));
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/^listening (\S+)$/m)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before it was ready`));
  });
}

/** Stops an instance process: SIGTERM, then SIGKILL if it has not exited within 5 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function spawnInstance(
  index: number,
  config: InstanceConfig,
  options: StartInstancesOptions,
): { child: ChildProcess; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? process.execArgv), options.entry ?? DEFAULT_ENTRY],
    {
      env: instanceEnv(options.env),
      // An IPC channel: the configuration arrives on it, and when this process goes away
      // the instance sees it close and stops.
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  // An instance that failed before reading it closed the channel: its exit says why.
  child.send(config, (error) => {
    if (error) child.kill('SIGTERM');
  });
  let stderr = '';
  const output =
    options.onOutput ??
    ((instance: number, line: string) => process.stderr.write(`[instance ${instance}] ${line}\n`));
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    // Only the end is kept, for the message when the instance fails to start.
    stderr = (stderr + text).slice(-10_000);
    for (const line of text.split('\n')) if (line.trim()) output(index, line);
  });
  return { child, stderr: () => stderr };
}

/** Starts Redis (unless given), the instances and the proxy; `close` stops all of it. */
export async function startInstances(options: StartInstancesOptions): Promise<RunningInstances> {
  const { count, host = '127.0.0.1' } = options;
  if (!Number.isInteger(count) || count < 2 || count > 8) {
    throw new Error(`instances: an integer from 2 to 8 (got ${count})`);
  }
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const spawned = options.redisUrl ? undefined : await spawnRedisServer();
    if (spawned) cleanups.push(spawned.stop);
    const redisUrl = options.redisUrl ?? (spawned?.url as string);
    // The proxy listens first: its origin is what every instance must accept.
    const proxy = await startRoundRobinProxy({
      port: options.port,
      host,
      onRequest: options.onRequest,
    });
    cleanups.push(proxy.close);
    const config: InstanceConfig = {
      catalog: options.catalog,
      pageDir: options.pageDir,
      redisUrl,
      approvalSecret: options.approvalSecret ?? randomBytes(32).toString('base64url'),
      sessionSecret: options.sessionSecret ?? randomBytes(32).toString('base64url'),
      origins: proxyOrigins(host, proxy.port),
      settings: options.settings ?? {},
      modelEnv: modelEnv(),
    };
    const started = Array.from({ length: count }, (_, index) =>
      spawnInstance(index, config, options),
    );
    for (const { child } of started) cleanups.push(() => stopChild(child));
    const urls = await Promise.all(
      started.map(({ child, stderr }) =>
        listening(child, options.startTimeoutMs ?? 60_000, stderr),
      ),
    );
    proxy.setTargets(urls);
    return {
      url: proxy.url,
      proxy,
      instances: urls.map((url, index) => ({ url, pid: started[index]?.child.pid as number })),
      redis: { url: redisUrl, spawned: spawned !== undefined },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
