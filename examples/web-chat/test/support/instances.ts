import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningEmulator } from '@catalogkit/emulator';
import { type StartEmulatorOptions, startEmulator } from '@catalogkit/emulator';
import { build } from 'esbuild';
import { expect } from 'vitest';
import type { InstanceSettings } from '../../src/dev/instance.js';
import { startInstances } from '../../src/dev/instances.js';
import type { ProxiedRequest } from '../../src/dev/round-robin-proxy.js';
import type { RunningWebChat, WebChatOptions } from '../../src/server.js';
import { PAGE_DIR, SECRET_KEY } from './constants.js';

/** Why the two-instance tests cannot run here (outside CI only; in CI a missing Redis fails). */
export function redisMissing(): string | undefined {
  if (spawnSync('redis-server', ['--version']).status === 0) return undefined;
  const reason = 'redis-server not found (apt-get install redis-server)';
  if (process.env.CI) throw new Error(`Redis missing in CI: ${reason}`);
  return reason;
}

/** The emulator and the two instances behind the proxy (a `TestApp` of app.ts, and more). */
export interface TwoInstanceApp {
  emulator: RunningEmulator;
  /** The proxy's URL; closing it stops the proxy, the instances and their Redis. */
  chat: RunningWebChat;
  proxy: ProxyRecord;
  close(): Promise<void>;
}

/** The two-instance app's view of its proxy: every request passed on, in order. */
export interface ProxyRecord {
  proxied: ProxiedRequest[];
  /** Requests passed on to each instance, as the proxy counts them. */
  counts(): readonly number[];
  /** Of those, the ones each instance answered. */
  answered(): readonly number[];
  /** The instances' own addresses (reached directly only to prove a point). */
  instanceUrls: string[];
  /** Process ids of the instances. */
  pids: number[];
  /** What the instances printed on stderr. */
  output: string[];
}

/** The instance process of the tests (the scripted model, the test's clock). */
const INSTANCE_SOURCE = fileURLToPath(new URL('./instance-main.ts', import.meta.url));
/** Node's options for it: none, the bundle holds every module it runs. */
export const INSTANCE_NODE_ARGS: string[] = [];

let bundled: Promise<string> | undefined;

/**
 * instance-main.ts and the workspace sources it imports (`@catalogkit/source`), bundled once
 * per test file into one ES module, as a deployment ships it. Through tsx every instance spent
 * about 3 s of CPU loading and compiling the same sources, and these tests start dozens of
 * instances; the code they run is the same.
 */
export function instanceEntry(): Promise<string> {
  bundled ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webchat-instance-'));
    // Removed when the test file's worker exits (its last instance has stopped by then).
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'instance.mjs');
    await build({
      entryPoints: [INSTANCE_SOURCE],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      conditions: ['@catalogkit/source'],
      outfile,
      logLevel: 'warning',
      // Some dependencies (ioredis) are CommonJS: their `require` calls need one in the module.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    return outfile;
  })();
  return bundled;
}
const SETTINGS: ReadonlyArray<keyof InstanceSettings> = [
  'collections',
  'showCommission',
  'approvalTtlSeconds',
  'rateLimits',
  'maxConversations',
  'tokenTtlSeconds',
  'maxChatBodyBytes',
];

/** The test's clock, shared with the instance processes through a file. */
function fileClock(now: () => number) {
  const dir = mkdtempSync(join(tmpdir(), 'webchat-clock-'));
  const file = join(dir, 'now');
  const write = () => {
    // Written whole, then renamed: an instance never reads half a number.
    writeFileSync(`${file}.next`, String(now()));
    renameSync(`${file}.next`, file);
  };
  write();
  return { file, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The chat options a test passes, as instance settings (JSON); the clock goes apart. */
function settingsOf(chatOptions: Partial<WebChatOptions>): InstanceSettings {
  const unsupported = Object.keys(chatOptions).filter(
    (name) => name !== 'now' && !SETTINGS.includes(name as keyof InstanceSettings),
  );
  if (unsupported.length > 0) {
    throw new Error(`not supported with two instances: ${unsupported.join(', ')}`);
  }
  const { now: _now, ...settings } = chatOptions;
  return settings as InstanceSettings;
}

/**
 * The emulator (in this process, so tests read its state) and the web chat as two instance
 * processes sharing a throwaway redis-server, behind the round-robin proxy: `chat.url` is
 * the proxy's. `redisUrl` shares a Redis the test runs instead.
 */
export async function startTwoInstanceApp(
  emulatorOptions: StartEmulatorOptions = {},
  chatOptions: Partial<WebChatOptions> = {},
  redisUrl?: string,
): Promise<TwoInstanceApp> {
  const settings = settingsOf(chatOptions);
  const clock = chatOptions.now ? fileClock(chatOptions.now) : undefined;
  const emulator = await startEmulator({ ...emulatorOptions, keys: { valid: SECRET_KEY } });
  const proxied: ProxiedRequest[] = [];
  const output: string[] = [];
  const running = await startInstances({
    count: 2,
    catalog: { apiKey: SECRET_KEY, baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl },
    pageDir: PAGE_DIR,
    redisUrl,
    settings,
    entry: await instanceEntry(),
    nodeArgs: INSTANCE_NODE_ARGS,
    env: clock ? { WEBCHAT_TEST_CLOCK_FILE: clock.file } : {},
    onOutput: (instance, line) => output.push(`[instance ${instance}] ${line}`),
    onRequest: (request) => {
      clock?.write();
      proxied.push(request);
    },
  }).catch(async (error: unknown) => {
    await emulator.close();
    clock?.remove();
    throw error;
  });
  let closed = false;
  const record: ProxyRecord = {
    proxied,
    counts: () => running.proxy.counts,
    answered: () => running.proxy.answered,
    instanceUrls: running.instances.map((instance) => instance.url),
    pids: running.instances.map((instance) => instance.pid),
    output,
  };
  const closeChat = async () => {
    if (closed) return;
    closed = true;
    const counts = record.counts();
    const answered = record.answered();
    await running.close();
    clock?.remove();
    // Whatever the test did, it did through both instances, in turn.
    expectAlternated(record.proxied, counts, answered);
  };
  return {
    emulator,
    chat: { url: running.url, close: closeChat },
    proxy: record,
    close: async () => {
      await closeChat().catch(() => undefined);
      await emulator.close().catch(() => undefined);
    },
  };
}

/**
 * Fails unless every request went to the other instance than the one before it, the
 * proxy's counts agree with what it passed on, and (past one request) both instances
 * answered some.
 */
export function expectAlternated(
  proxied: readonly ProxiedRequest[],
  counts: readonly number[],
  answered: readonly number[],
): void {
  const turns = proxied.map((request) => request.instance);
  const out = turns.filter((instance, index) => index > 0 && instance === turns[index - 1]);
  expect(out, 'requests that went to the same instance as the one before').toEqual([]);
  expect(counts).toEqual([0, 1].map((i) => turns.filter((instance) => instance === i).length));
  if (turns.length >= 2) expect(answered.every((count) => count > 0)).toBe(true);
}
