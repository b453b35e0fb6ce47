import { ConfigurationError } from '@catalogkit/core';

/*
 * The three clients are described by the few members the store calls, not imported from
 * their packages: the peers are optional, and a declaration file importing `ioredis`, `redis`
 * and `@upstash/redis` would not compile (`skipLibCheck: false`) for a user who installed one
 * of them. Each client's own types are checked against these in test/client-types.test.ts,
 * on every major the package supports.
 */

/**
 * An ioredis client: `new Redis(...)` or `new Cluster(...)` from `ioredis` 5 or 6. The store
 * sends its commands with `call`.
 */
export interface IoredisClient {
  call(command: string, ...args: string[]): Promise<unknown>;
  /** ioredis's connection state (`"ready"`, `"reconnecting"`, ...; `"wait"` before a lazy connect). */
  readonly status: string;
  /** Connects a client made with `lazyConnect`; the store calls it at its first command. */
  connect(): Promise<unknown>;
}

/** What the store passes to node-redis's `sendCommand`. */
export interface NodeRedisCommandOptions {
  /** node-redis drops the command from its queue when it was not sent within this time. */
  timeout?: number;
  /**
   * node-redis drops the command from its queue when this aborts before it was sent: the
   * store aborts it when it gives up (its time limit, or the caller's signal).
   */
  abortSignal?: AbortSignal;
  /** Empty: replies arrive as strings and numbers whatever mapping the client was given. */
  typeMapping?: Record<string, never>;
}

/**
 * A node-redis client: `createClient(...)` from `redis` 5 or 6 (or `@redis/client`), already
 * connected (`await client.connect()`). The store sends its commands with `sendCommand`.
 */
export interface NodeRedisClient {
  sendCommand(args: ReadonlyArray<string>, options?: NodeRedisCommandOptions): Promise<unknown>;
  /** Whether `connect()` was called and `close()` was not. */
  readonly isOpen: boolean;
}

/**
 * An Upstash client: `new Redis(...)` or `Redis.fromEnv()` from `@upstash/redis` (its
 * Node.js, Cloudflare or Fastly entry), which talks HTTP, so it also runs on the edge. The
 * store sends its commands with `exec`.
 */
export interface UpstashRedisClient {
  exec(args: [command: string, ...args: string[]]): Promise<unknown>;
}

/** Any client the Redis store accepts. */
export type RedisClient = IoredisClient | NodeRedisClient | UpstashRedisClient;

/** The limits of one command the store sends. @internal */
export interface SendLimits {
  /** The store's time limit for the command. */
  timeoutMs: number;
  /** Aborted when the store gives up on the command (time limit, or the caller's signal). */
  signal: AbortSignal;
}

/** Sends one command through whichever client the user has. @internal */
export interface CommandSender {
  /** Names the store in errors, e.g. `redis (ioredis)`. */
  readonly storeName: string;
  /** The password or token the client holds, never to be shown in an error. */
  readonly secrets: readonly string[];
  send(args: [command: string, ...args: string[]], limits: SendLimits): Promise<unknown>;
}

function hasMethod(value: object, name: string): boolean {
  return typeof (value as Record<string, unknown>)[name] === 'function';
}

function hasField(value: object, name: string, type: 'string' | 'boolean'): boolean {
  return typeof (value as Record<string, unknown>)[name] === type;
}

/** `value[path[0]][path[1]]...`, or undefined when any step is missing. */
function dig(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

function strings(...values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}

/** The password in a `redis://user:password@host` URL, decoded. */
function urlPassword(url: unknown): string[] {
  if (typeof url !== 'string') return [];
  try {
    const { password } = new URL(url);
    return password === '' ? [] : strings(password, decodeURIComponent(password));
  } catch {
    return [];
  }
}

/** The password of an ioredis `Redis` (`options.password`) or `Cluster` (`redisOptions`). */
function ioredisSecrets(client: IoredisClient): string[] {
  return strings(
    dig(client, 'options', 'password'),
    dig(client, 'options', 'redisOptions', 'password'),
  );
}

/** The password of a node-redis client (`options.password`, or its `url`). */
function nodeRedisSecrets(client: NodeRedisClient): string[] {
  return [
    ...strings(dig(client, 'options', 'password')),
    ...urlPassword(dig(client, 'options', 'url')),
  ];
}

/** The shape of `@upstash/redis`'s HTTP requester (its exported `Requester` type). */
interface UpstashRequester {
  request(request: {
    body: unknown;
    signal?: AbortSignal;
  }): Promise<{ result?: unknown; error?: unknown }>;
}

/**
 * The HTTP requester inside an `@upstash/redis` client (`client.client`, typed `Requester`
 * by the package), when it has one: unlike `exec`, its `request` takes a signal per
 * request, so the store can abort a request it gave up on (and stop reading an answer that
 * never ends) whatever `signal` option the client was built with.
 */
function upstashRequester(client: UpstashRedisClient): UpstashRequester | undefined {
  const requester = dig(client, 'client');
  return typeof requester === 'object' && requester !== null && hasMethod(requester, 'request')
    ? (requester as UpstashRequester)
    : undefined;
}

/** The token the Upstash client sends (`Authorization: Bearer <token>`). */
function upstashSecrets(client: UpstashRedisClient): string[] {
  const authorization = dig(client, 'client', 'headers', 'authorization');
  if (typeof authorization !== 'string') return [];
  return strings(authorization.replace(/^Bearer\s+/i, ''));
}

/** An error answer of the Upstash endpoint, named as the client names its own. */
function upstashError(text: unknown): Error {
  return Object.assign(new Error(typeof text === 'string' ? text : 'error'), {
    name: 'UpstashError',
  });
}

function upstashSender(client: UpstashRedisClient): CommandSender {
  const requester = upstashRequester(client);
  const send: CommandSender['send'] = requester
    ? async (args, { signal }) => {
        // What the client's `exec` does, minus its JSON parsing of the result.
        const { result, error } = await requester.request({ body: args, signal });
        if (error !== undefined && error !== null) throw upstashError(error);
        if (result === undefined) throw new TypeError('Request did not return a result');
        return result;
      }
    : (args) => client.exec(args);
  return { storeName: 'upstash redis', secrets: upstashSecrets(client), send };
}

/** ioredis's status of a client made with `lazyConnect` that has not connected yet. */
const NEVER_CONNECTED = 'wait';

/**
 * Sends through ioredis, connecting a `lazyConnect` client at the first command: with
 * `enableOfflineQueue: false` ioredis would refuse that command instead, and connecting at
 * creation would make an import (a `next build`) need a reachable Redis. One connect serves
 * the commands that arrive meanwhile (ioredis refuses a second); once it has connected, a
 * lost connection is ioredis's own to restore, never the store's.
 */
function ioredisSend(ioredis: IoredisClient): CommandSender['send'] {
  let connecting: Promise<unknown> | undefined;
  return async ([command, ...args]) => {
    if (ioredis.status === NEVER_CONNECTED) {
      connecting = ioredis.connect().finally(() => {
        connecting = undefined;
      });
    }
    if (connecting) await connecting;
    // ioredis cannot withdraw a command: the store's StallGuard bounds how many it sends.
    return ioredis.call(command, ...args);
  };
}

/**
 * Tells the clients apart by members only one of them has (node-redis first: it alone has
 * `isOpen`; then ioredis, whose `status` Upstash lacks), so no client package is loaded.
 * @throws ConfigurationError naming `client` when it is none of the three.
 * @internal
 */
export function commandSender(client: RedisClient): CommandSender {
  if (typeof client === 'object' && client !== null) {
    if (hasMethod(client, 'sendCommand') && hasField(client, 'isOpen', 'boolean')) {
      const nodeRedis = client as NodeRedisClient;
      return {
        storeName: 'redis (node-redis)',
        secrets: nodeRedisSecrets(nodeRedis),
        send: (args, { timeoutMs, signal }) =>
          nodeRedis.sendCommand(args, { timeout: timeoutMs, abortSignal: signal, typeMapping: {} }),
      };
    }
    if (hasMethod(client, 'call') && hasField(client, 'status', 'string')) {
      const ioredis = client as IoredisClient;
      return {
        storeName: 'redis (ioredis)',
        secrets: ioredisSecrets(ioredis),
        send: ioredisSend(ioredis),
      };
    }
    if (hasMethod(client, 'exec')) return upstashSender(client as UpstashRedisClient);
  }
  throw new ConfigurationError(
    'Redis store: option client must be an ioredis client, a node-redis client or an @upstash/redis client',
  );
}
