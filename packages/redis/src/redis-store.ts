import type { CatalogStore, LockOptions, ReleaseLock, StoredValue } from '@catalogkit/core';
import {
  ConfigurationError,
  SessionLockTimeoutError,
  StoreUnavailableError,
} from '@catalogkit/core/errors';
import {
  type CommandSender,
  commandSender,
  type IoredisClient,
  type NodeRedisClient,
  type RedisClient,
  type UpstashRedisClient,
} from './clients.js';
import { checkText, dataKey, lockKey } from './keys.js';
import { StallGuard } from './stall-guard.js';
import { bounded, pause } from './timing.js';
import { isServerReply, secretForms, unavailable, wrongAnswer } from './unavailable.js';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** Prepended to every key (default `catalogkit:session:`). */
  prefix?: string;
  /** Pause between attempts to take a lock another instance holds (default 50 ms). */
  lockPollMs?: number;
  /**
   * Longest wait for one Redis command (default 5,000 ms). Past it the operation throws
   * `StoreUnavailableError`, whatever the client's own retry and queue settings, so a call
   * never hangs on a Redis that is down. A write that ran out of time may still be applied
   * (it reached Redis, which had not answered yet); until Redis answers again, the store
   * then sends nothing more (see the README, "When Redis is down").
   */
  timeoutMs?: number;
}

const DEFAULT_PREFIX = 'catalogkit:session:';
const DEFAULT_LOCK_POLL_MS = 50;
const DEFAULT_TIMEOUT_MS = 5_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2_147_483_647;
/**
 * Longest TTL written (2^50 ms, about 35,000 years); a longer one is shortened to it, so
 * the remaining life Redis reads back is always a safe integer (clients parse larger
 * integer replies inexactly).
 */
const MAX_TTL_MS = 2 ** 50;
/** An integer reply as ioredis gives it with `stringNumbers: true`. */
const DECIMAL_INTEGER = /^-?\d{1,16}$/;

/*
 * Reads the value and its remaining life in one step. The value comes back behind a `=`:
 * @upstash/redis parses replies that look like JSON (`automaticDeserialization`, on by
 * default), and `=` makes every value read back exactly as it was written.
 */
const GET_WITH_TTL = `local value = redis.call('GET', KEYS[1])
if not value then return false end
return { redis.call('PTTL', KEYS[1]), '=' .. value }`;

// Deletes the key only if it still holds ARGV[1]: a holder whose lease ran out must not free
// the lock a later holder has taken since, nor a late clear remove another writer's record.
const DELETE_IF_EQUALS = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

type Command = [command: string, ...args: string[]];

/** How one command is sent. */
interface SendOptions {
  /** It changes data: a failure after sending may still have been applied. */
  write: boolean;
  /** The caller's signal: on abort, the store stops waiting (the command may still run). */
  signal?: AbortSignal | undefined;
  /** Sent even while the store holds commands back (a lock's release, see `#tryLock`). */
  evenIfStalled?: boolean;
  /** Set to true once the command is handed to the client (from then on it may land). */
  handedOver?: { value: boolean };
}

/**
 * A `CatalogStore` in Redis, so conversations, tokens and every other piece of shared state
 * hold across processes and serverless invocations. Made by {@link createRedisStore}.
 *
 * Keys are `${prefix}${key}` (a key starting with `~` gets a second `~`) with a TTL equal
 * to the entry's remaining life (`PX`); reads return the remaining life from `PTTL`, so
 * instances whose clocks disagree still agree on when an entry expires. `setIfAbsent` is
 * `SET NX`. Locks are `${prefix}~lock:${key}`, a namespace no data key can reach, taken
 * with `SET NX PX` and a random owner token, released by compare-and-delete. Every failure
 * to reach Redis, or an answer a command cannot give, throws `StoreUnavailableError`
 * naming the store ({@link RedisStore.name}).
 */
export class RedisStore implements CatalogStore {
  /** Names the store in errors: `redis (ioredis)`, `redis (node-redis)` or `upstash redis`. */
  readonly name: string;
  readonly #sender: CommandSender;
  readonly #prefix: string;
  readonly #lockPollMs: number;
  readonly #timeoutMs: number;
  readonly #secrets: readonly string[];
  readonly #guard: StallGuard;

  /**
   * Prefer {@link createRedisStore}, which is typed per client.
   * @throws ConfigurationError naming the option that is missing or out of range.
   */
  constructor(client: RedisClient, options: RedisStoreOptions = {}) {
    this.#sender = commandSender(client);
    this.name = this.#sender.storeName;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    if (typeof this.#prefix !== 'string') {
      throw new ConfigurationError('Redis store: option prefix must be a string');
    }
    checkText('option prefix', this.#prefix);
    this.#lockPollMs = positiveMs('lockPollMs', options.lockPollMs ?? DEFAULT_LOCK_POLL_MS);
    // Whole milliseconds: node-redis takes the limit as a timer delay.
    this.#timeoutMs = Math.ceil(positiveMs('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
    this.#secrets = this.#sender.secrets.flatMap(secretForms);
    this.#guard = new StallGuard(() => this.#probe(), this.#timeoutMs);
  }

  async get(key: string): Promise<StoredValue | undefined> {
    checkText('key', key);
    const name = dataKey(this.#prefix, key);
    const reply = await this.#send('GET', ['EVAL', GET_WITH_TTL, '1', name], { write: false });
    if (reply === null) return undefined;
    const [rawPttl, marked] = Array.isArray(reply) ? reply : [];
    const pttl = integerReply(rawPttl);
    if (pttl === undefined || pttl < -2 || typeof marked !== 'string' || !marked.startsWith('=')) {
      throw wrongAnswer(this.name, 'GET', 'null or [remaining life, value]', reply);
    }
    // PTTL: -1 means no expiry, -2 that the key has gone. 0 is under a millisecond left: the key
    // is still there (a SET NX now fails), so it reads as present, its life rounded up to 1 ms;
    // "absent" always means a claim can win.
    if (pttl === -2) return undefined;
    return { value: marked.slice(1), ttlMs: pttl === -1 ? undefined : Math.max(pttl, 1) };
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkText('key', key);
    checkText('value', value);
    checkTtl(ttlMs);
    if (ttlMs !== undefined && ttlMs <= 0) {
      await this.delete(key);
      return;
    }
    const name = dataKey(this.#prefix, key);
    const reply = await this.#send('SET', ['SET', name, value, ...expiry(ttlMs)], {
      write: true,
    });
    if (reply !== 'OK') throw wrongAnswer(this.name, 'SET', '"OK"', reply, true);
  }

  /**
   * `SET NX`: of any number of instances racing on one key, exactly one gets `true`.
   * @throws ConfigurationError when `ttlMs` is 0 or less: a claim that keeps nothing would
   *   let every racer win.
   */
  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    checkText('key', key);
    checkText('value', value);
    checkTtl(ttlMs);
    if (ttlMs !== undefined && ttlMs <= 0) {
      throw new ConfigurationError(
        'Redis store: setIfAbsent needs ttlMs above 0 (or none): a claim that keeps nothing cannot be won once',
      );
    }
    const name = dataKey(this.#prefix, key);
    const reply = await this.#send('SET NX', ['SET', name, value, 'NX', ...expiry(ttlMs)], {
      write: true,
    });
    if (reply !== 'OK' && reply !== null) {
      throw wrongAnswer(this.name, 'SET NX', '"OK" or null', reply, true);
    }
    return reply === 'OK';
  }

  async delete(key: string): Promise<void> {
    checkText('key', key);
    const reply = await this.#send('DEL', ['DEL', dataKey(this.#prefix, key)], { write: true });
    if (integerReply(reply) === undefined) {
      throw wrongAnswer(this.name, 'DEL', 'a number', reply, true);
    }
  }

  /** Compare-and-delete in one Lua script (as a lock's release), so no other write slips in. */
  async deleteIfEquals(key: string, value: string): Promise<boolean> {
    checkText('key', key);
    checkText('value', value);
    const name = dataKey(this.#prefix, key);
    const reply = await this.#send('DEL IF EQUALS', ['EVAL', DELETE_IF_EQUALS, '1', name, value], {
      write: true,
    });
    const deleted = integerReply(reply);
    if (deleted !== 0 && deleted !== 1) {
      throw wrongAnswer(this.name, 'DEL IF EQUALS', '0 or 1', reply, true);
    }
    return deleted === 1;
  }

  async lock(key: string, options: LockOptions): Promise<ReleaseLock> {
    checkText('key', key);
    checkLockOptions(options);
    const name = lockKey(this.#prefix, key);
    // Web Crypto, not node:crypto: the store also runs on the edge with @upstash/redis.
    const owner = crypto.randomUUID();
    // A monotonic clock: a wall clock set back must not make the wait last as much longer.
    const deadline = performance.now() + options.waitMs;
    const leaseMs = String(Math.max(1, Math.ceil(options.leaseMs)));
    for (;;) {
      options.signal?.throwIfAborted();
      if (await this.#tryLock(name, owner, leaseMs, options.signal)) {
        return () => this.#release(name, owner);
      }
      if (performance.now() >= deadline) throw new SessionLockTimeoutError(key, options.waitMs);
      await pause(this.#lockPollMs, options.signal);
    }
  }

  async #tryLock(
    name: string,
    owner: string,
    leaseMs: string,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    let reply: unknown;
    const handedOver = { value: false };
    try {
      reply = await this.#send('LOCK', ['SET', name, owner, 'NX', 'PX', leaseMs], {
        write: true,
        signal,
        handedOver,
      });
    } catch (error) {
      // The SET may still reach Redis later (it was on its way when the store gave up, or a
      // client's offline queue sends it on reconnect): queue the owner's release behind it,
      // so such a late lock frees at once instead of blocking the key for its lease.
      if (handedOver.value) this.#releaseBehind(name, owner);
      throw error;
    }
    if (reply !== 'OK' && reply !== null) {
      this.#releaseBehind(name, owner);
      throw wrongAnswer(this.name, 'LOCK', '"OK" or null', reply, true);
    }
    if (reply === 'OK' && signal?.aborted) {
      // Taken just as the caller gave up: nobody will release it.
      this.#releaseBehind(name, owner);
      throw signal.reason;
    }
    return reply === 'OK';
  }

  #releaseBehind(name: string, owner: string): void {
    this.#release(name, owner, true).catch(() => undefined);
  }

  async #release(name: string, owner: string, evenIfStalled = false): Promise<void> {
    const reply = await this.#send('UNLOCK', ['EVAL', DELETE_IF_EQUALS, '1', name, owner], {
      write: true,
      evenIfStalled,
    });
    const released = integerReply(reply);
    if (released !== 0 && released !== 1) {
      throw wrongAnswer(this.name, 'UNLOCK', '0 or 1', reply, true);
    }
  }

  /** One `PING` for the StallGuard: any answer, an error reply too, shows Redis reads again. */
  async #probe(): Promise<void> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#timeoutMs);
    try {
      await this.#sender.send(['PING'], {
        timeoutMs: this.#timeoutMs,
        signal: controller.signal,
      });
    } catch (error) {
      if (!isServerReply(error)) throw error;
    } finally {
      clearTimeout(timer);
    }
    // The Upstash client answers an aborted request itself: that is no answer of Redis.
    controller.signal.throwIfAborted();
  }

  /**
   * Sends one command, bounded by `timeoutMs` (a wait for a stalled Redis to answer
   * included) and by the caller's signal; every failure becomes StoreUnavailableError, and
   * an abort rejects with the signal's reason.
   */
  async #send(operation: string, command: Command, options: SendOptions): Promise<unknown> {
    const { signal, write } = options;
    const started = performance.now();
    if (!options.evenIfStalled && !(await this.#guard.ready(this.#timeoutMs, signal))) {
      throw this.#notSent(operation);
    }
    signal?.throwIfAborted();
    const timeoutMs = Math.max(1, Math.ceil(this.#timeoutMs - (performance.now() - started)));
    if (options.handedOver) options.handedOver.value = true;
    const send = (limit: AbortSignal) =>
      this.#watch(this.#sender.send(command, { timeoutMs, signal: limit }), limit);
    const onTimeout = () => {
      this.#guard.timedOut();
      return this.#noAnswer(operation, write);
    };
    try {
      return await bounded(send, timeoutMs, signal, onTimeout);
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error;
      const failed = { operation, sent: command.slice(1), secrets: this.#secrets, write };
      throw unavailable(this.name, error, failed);
    }
  }

  /**
   * An answer shows Redis reads commands again (an error reply too). One after the store
   * gave up is not trusted: the Upstash client answers an aborted request itself. A late
   * failure is dropped, not left unhandled.
   */
  #watch(answer: Promise<unknown>, limit: AbortSignal): Promise<unknown> {
    const answered = () => {
      if (!limit.aborted) this.#guard.answered();
    };
    answer.then(answered, (error: unknown) => (isServerReply(error) ? answered() : undefined));
    return answer;
  }

  #noAnswer(operation: string, write: boolean): StoreUnavailableError {
    const note = write ? '; it may still be applied' : '';
    return new StoreUnavailableError(
      this.name,
      `${operation} failed: no answer within ${this.#timeoutMs} ms${note}`,
    );
  }

  #notSent(operation: string): StoreUnavailableError {
    return new StoreUnavailableError(
      this.name,
      `${operation} not sent: an earlier command got no answer within ${this.#timeoutMs} ms, and Redis has not answered since (nothing was written)`,
    );
  }
}

/**
 * The store of catalogkit's shared state in Redis, for the client you already have. Pass it
 * wherever catalogkit takes a `store`; every instance given a store on the same Redis (and
 * prefix) shares conversations, tokens, update memory, used approvals and rate-limit pauses.
 * The store never closes the client (you own it), and connects it only when it was made with
 * ioredis's `lazyConnect` and never connected: at the store's first command, so creating the
 * client and the store does no I/O.
 *
 * @param client An ioredis `Redis` or `Cluster` (ioredis 5 or 6), connected or made with
 *   `lazyConnect` (the store's first command connects it). Set
 *   `enableOfflineQueue: false`, `maxRetriesPerRequest: 0` and
 *   `autoResendUnfulfilledCommands: false`, so a command fails at once while Redis is down
 *   and is never sent again after a reconnect: otherwise ioredis keeps it and sends it
 *   later, after the store has reported it failed.
 * @throws ConfigurationError when `client` is none of the supported clients, or an option is
 *   out of range (the message names it).
 * @example
 * const redis = new Redis(process.env.REDIS_URL!, {
 *   lazyConnect: true,
 *   enableOfflineQueue: false,
 *   maxRetriesPerRequest: 0,
 *   autoResendUnfulfilledCommands: false,
 * });
 * redis.on('error', (error) => log(error)); // no connect(): the store's first command connects
 * const store = createRedisStore(redis);
 */
export function createRedisStore(client: IoredisClient, options?: RedisStoreOptions): RedisStore;
/**
 * @param client A node-redis client (`redis` 5 or 6), connected: `await client.connect()`.
 *   Give it an `error` listener (node-redis emits one whenever the connection drops, and an
 *   unheard `error` ends the process) and `disableOfflineQueue: true`.
 * @example
 * const client = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true });
 * client.on('error', (error) => log(error));
 * await client.connect();
 * const store = createRedisStore(client);
 */
export function createRedisStore(client: NodeRedisClient, options?: RedisStoreOptions): RedisStore;
/**
 * @param client An `@upstash/redis` client (HTTP, so it also runs on the edge). Any
 *   `automaticDeserialization` setting works: values read back exactly as written. The
 *   store aborts each of its requests when it gives up on it (its own signal replaces the
 *   client's `signal` option for them), so an answer that never ends is not read on.
 * @example
 * const store = createRedisStore(Redis.fromEnv());
 */
export function createRedisStore(
  client: UpstashRedisClient,
  options?: RedisStoreOptions,
): RedisStore;
/** @param client Any of the three, when which one is only known at run time. */
export function createRedisStore(client: RedisClient, options?: RedisStoreOptions): RedisStore;
export function createRedisStore(client: RedisClient, options?: RedisStoreOptions): RedisStore {
  return new RedisStore(client, options);
}

function positiveMs(option: string, value: number): number {
  if (typeof value !== 'number' || !(value > 0) || value > MAX_TIMER_MS) {
    throw new ConfigurationError(
      `Redis store: option ${option} must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}`,
    );
  }
  return value;
}

/**
 * An integer reply: a number, or the decimal text ioredis gives with `stringNumbers: true`;
 * undefined when it is neither, or not a safe integer (a client parses larger ones
 * inexactly, so such a reply cannot be trusted).
 */
function integerReply(reply: unknown): number | undefined {
  const number = typeof reply === 'string' && DECIMAL_INTEGER.test(reply) ? Number(reply) : reply;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

function checkTtl(ttlMs: number | undefined): void {
  if (ttlMs === undefined) return;
  if (typeof ttlMs !== 'number' || Number.isNaN(ttlMs) || ttlMs > Number.MAX_SAFE_INTEGER) {
    throw new ConfigurationError(
      'Redis store: ttlMs must be a number of milliseconds (at most Number.MAX_SAFE_INTEGER)',
    );
  }
}

function checkLockOptions({ leaseMs, waitMs }: LockOptions): void {
  // A NaN lease or wait would otherwise reach Redis as "PX NaN", or poll forever.
  if (!(leaseMs > 0) || leaseMs > Number.MAX_SAFE_INTEGER) {
    throw new ConfigurationError('Redis store: leaseMs must be a number of milliseconds above 0');
  }
  if (!(waitMs >= 0)) {
    throw new ConfigurationError('Redis store: waitMs must be a number of milliseconds, 0 or more');
  }
}

/**
 * `PX <ms>` for a TTL (rounded up: never shorter than asked, but at most
 * {@link MAX_TTL_MS}), nothing for none.
 */
function expiry(ttlMs: number | undefined): string[] {
  return ttlMs === undefined ? [] : ['PX', String(Math.min(MAX_TTL_MS, Math.ceil(ttlMs)))];
}
