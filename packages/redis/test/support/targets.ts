import { readFileSync } from 'node:fs';
import type { RedisClient } from '../../src/index.js';

/** Where a client connects: redis-server, and the Upstash stand-in in front of it. */
export interface ConnectionInfo {
  redisUrl: string;
  upstashUrl?: string;
  upstashToken?: string;
}

/**
 * `recommended`: the client options the README gives; `defaults`: the client as created with
 * no options at all (the store's own time limit must still bound every operation).
 */
export type Settings = 'recommended' | 'defaults';

export interface Connected {
  client: RedisClient;
  close(): Promise<void>;
}

/** One client package at one major, as the shared suite runs it. */
export interface StoreTarget {
  /** Also the child process's TARGET. */
  id: string;
  label: string;
  /** The name the store gives itself in errors. */
  storeName: string;
  /** The npm name the dev dependency is installed under. */
  packageName: string;
  major: number;
  /** Whether the client reaches Redis through the Upstash stand-in. */
  viaUpstash: boolean;
  connect(info: ConnectionInfo, settings: Settings): Promise<Connected>;
}

/** The installed version of a dev dependency (its package.json, read through the link). */
export function installedVersion(packageName: string): string {
  const file = new URL(`../../node_modules/${packageName}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Both ioredis majors load through the same code: only the package name differs. */
function ioredisTarget(packageName: 'ioredis' | 'ioredis-v5', major: number): StoreTarget {
  return {
    id: `ioredis-${major}`,
    label: `ioredis ${major}`,
    storeName: 'redis (ioredis)',
    packageName,
    major,
    viaUpstash: false,
    async connect(info, settings) {
      const { Redis } = (await import(packageName)) as typeof import('ioredis');
      const client = new Redis(info.redisUrl, settings === 'recommended' ? ioredisOptions : {});
      client.on('error', () => undefined); // reconnects on its own; the store reports failures
      if (settings === 'recommended') await settle(client.connect());
      return {
        client,
        close: async () => {
          client.disconnect();
        },
      };
    },
  };
}

/**
 * The README's ioredis options: connect first (`lazyConnect`, then `connect()`), then never
 * queue a command while disconnected (`enableOfflineQueue: false`), and never send again a
 * command that was on its way when the connection dropped (`maxRetriesPerRequest: 0`,
 * `autoResendUnfulfilledCommands: false`): it fails instead, and a write the store reported
 * failed cannot land after a reconnect.
 */
export const ioredisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 2_000,
};

/**
 * Waits for a connection at most a second: with a refused login a client may retry for
 * ever and `connect()` never settle (the wrong-password test is about what the store then
 * reports).
 */
async function settle(connecting: Promise<unknown>): Promise<void> {
  const ended = connecting.catch(() => undefined);
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1_000))]);
}

function nodeRedisTarget(packageName: 'redis' | 'redis-v5', major: number): StoreTarget {
  return {
    id: `node-redis-${major}`,
    label: `node-redis ${major}`,
    storeName: 'redis (node-redis)',
    packageName,
    major,
    viaUpstash: false,
    async connect(info, settings) {
      const { createClient } = (await import(packageName)) as typeof import('redis');
      const options =
        settings === 'recommended'
          ? { disableOfflineQueue: true, socket: { connectTimeout: 2_000 } }
          : {};
      const client = createClient({ url: info.redisUrl, ...options });
      // node-redis emits `error` on every lost connection; unheard, it would end the process.
      client.on('error', () => undefined);
      await settle(client.connect());
      return {
        client,
        close: async () => {
          client.destroy();
        },
      };
    },
  };
}

export const upstashTarget: StoreTarget = {
  id: 'upstash',
  label: 'upstash',
  storeName: 'upstash redis',
  packageName: '@upstash/redis',
  major: 1,
  viaUpstash: true,
  async connect(info, settings) {
    const { Redis } = await import('@upstash/redis');
    // Recommended: one retry of a failed fetch. (The store aborts its own requests.)
    const options = settings === 'recommended' ? { retry: { retries: 1, backoff: () => 50 } } : {};
    const client = new Redis({
      url: info.upstashUrl ?? '',
      token: info.upstashToken ?? '',
      enableTelemetry: settings === 'defaults',
      ...options,
    });
    return { client, close: async () => undefined };
  },
};

export const ioredisTargets = [ioredisTarget('ioredis', 6), ioredisTarget('ioredis-v5', 5)];
export const nodeRedisTargets = [nodeRedisTarget('redis', 6), nodeRedisTarget('redis-v5', 5)];
export const allTargets = [...ioredisTargets, ...nodeRedisTargets, upstashTarget];
