/**
 * One web chat instance started by the launcher (`pnpm chat --instances 2`): its whole
 * configuration comes from the launcher as the first message on the IPC channel (never in
 * the environment, which the kernel keeps readable in `/proc/<pid>/environ` for the life
 * of the process), it keeps its shared state in Redis, and it serves on a free loopback
 * port that it prints as `listening <url>` once ready.
 */
import type { CatalogLogger } from '@catalogkit/core';
import type { LanguageModel } from 'ai';
import type { Context } from 'hono';
import { type RunningWebChat, startWebChat, type WebChatOptions } from '../server.js';
import { connectRedisStore } from './shared-store.js';

/** The settings an instance takes from the launcher (everything JSON can carry). */
export type InstanceSettings = Pick<
  WebChatOptions,
  | 'collections'
  | 'showCommission'
  | 'approvalTtlSeconds'
  | 'rateLimits'
  | 'maxConversations'
  | 'tokenTtlSeconds'
  | 'maxChatBodyBytes'
>;

/** What the launcher tells each instance. */
export interface InstanceConfig {
  catalog: { apiKey: string; baseUrl: string; mcpUrl: string };
  pageDir: string;
  redisUrl: string;
  /** The same in every instance: an approval sealed by one opens in the others. */
  approvalSecret: string;
  /** The same in every instance: a session cookie set by one is read by the others. */
  sessionSecret: string;
  /** The proxy's origins: the page is served from there, not from the instance's port. */
  origins: string[];
  settings: InstanceSettings;
  /**
   * The model's settings from the launcher's environment (`OPENAI_API_KEY`, `OPENAI_MODEL`,
   * `OPENAI_BASE_URL`), which the launcher keeps out of the instance's environment.
   */
  modelEnv: Record<string, string>;
}

/** What the launcher's first IPC message is called in errors. */
const CONFIG_NAME = 'instance configuration';

/** How long an instance waits for its configuration before giving up. */
const CONFIG_TIMEOUT_MS = 30_000;

const isStringRecord = (value: unknown, names?: string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (names ?? Object.keys(value)).every(
    (name) => typeof (value as Record<string, unknown>)[name] === 'string',
  );

/** Reads the launcher's configuration message; names the field that is wrong. */
export function parseInstanceConfig(message: unknown): InstanceConfig {
  if (typeof message !== 'object' || message === null) {
    throw new Error(`${CONFIG_NAME}: an object`);
  }
  const config = message as Partial<InstanceConfig>;
  for (const name of ['pageDir', 'redisUrl', 'approvalSecret', 'sessionSecret'] as const) {
    if (typeof config[name] !== 'string') throw new Error(`${CONFIG_NAME}.${name}: a string`);
  }
  if (!isStringRecord(config.catalog, ['apiKey', 'baseUrl', 'mcpUrl'])) {
    throw new Error(`${CONFIG_NAME}.catalog: { apiKey, baseUrl, mcpUrl } strings`);
  }
  if (!Array.isArray(config.origins) || !config.origins.every((o) => typeof o === 'string')) {
    throw new Error(`${CONFIG_NAME}.origins: an array of strings`);
  }
  if (config.modelEnv !== undefined && !isStringRecord(config.modelEnv)) {
    throw new Error(`${CONFIG_NAME}.modelEnv: an object of strings`);
  }
  return {
    ...(config as InstanceConfig),
    settings: config.settings ?? {},
    modelEnv: config.modelEnv ?? {},
  };
}

/** The launcher's configuration: the first message on the IPC channel. */
function configFromLauncher(): Promise<InstanceConfig> {
  if (!process.send) {
    return Promise.reject(
      new Error(`no ${CONFIG_NAME}: instances are started by the launcher (--instances)`),
    );
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${CONFIG_NAME} within ${CONFIG_TIMEOUT_MS} ms`)),
      CONFIG_TIMEOUT_MS,
    );
    process.once('message', (message: unknown) => {
      clearTimeout(timer);
      try {
        resolve(parseInstanceConfig(message));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/**
 * The client's address as the launcher's proxy reports it. The proxy replaces
 * `X-Forwarded-For` with the address it was reached from, and the instance listens on
 * loopback only, so the header is the proxy's word (never a client's choice, except for
 * programs on this machine reaching the instance directly).
 */
export function forwardedFor(c: Context): string {
  const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
  return forwarded ? forwarded.slice(0, 64) : 'unknown';
}

/** What an instance takes that JSON cannot carry. */
export interface InstanceOptions {
  model: LanguageModel;
  logger?: CatalogLogger;
  /** The wall clock approvals expire by (default `Date.now`). */
  now?: () => number;
}

/** A running instance and its connection to Redis. */
export interface RunningInstance {
  chat: RunningWebChat;
  close(): Promise<void>;
}

/** Starts one instance: connects to Redis, then serves on a free loopback port. */
export async function startInstance(
  config: InstanceConfig,
  options: InstanceOptions,
): Promise<RunningInstance> {
  const shared = await connectRedisStore(config.redisUrl, options.logger);
  try {
    const chat = await startWebChat({
      ...config.settings,
      catalog: config.catalog,
      pageDir: config.pageDir,
      store: shared.store,
      approvalSecret: config.approvalSecret,
      sessionSecret: config.sessionSecret,
      origins: config.origins,
      clientAddress: forwardedFor,
      host: '127.0.0.1',
      port: 0,
      ...options,
    });
    return {
      chat,
      close: async () => {
        await chat.close().catch(() => undefined);
        await shared.close();
      },
    };
  } catch (error) {
    await shared.close();
    throw error;
  }
}

/**
 * Runs an instance as its own process: takes its configuration from the launcher (IPC),
 * prints `listening <url>` once it serves, and stops on SIGTERM or SIGINT, or when the
 * launcher goes away (its IPC channel closes), so that no instance outlives the launcher.
 * `options` may be a function of the configuration (e.g. to choose the model from its
 * `modelEnv`).
 */
export async function runInstanceProcess(
  options: InstanceOptions | ((config: InstanceConfig) => InstanceOptions),
): Promise<void> {
  let instance: RunningInstance | undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void (instance?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
  const config = await configFromLauncher();
  instance = await startInstance(config, typeof options === 'function' ? options(config) : options);
  process.stdout.write(`listening ${instance.chat.url}\n`);
}
