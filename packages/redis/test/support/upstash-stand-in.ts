import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RespConnection, type RespReply } from './resp.js';

/**
 * A loopback stand-in for Upstash's REST protocol in front of a real redis-server, so the
 * real `@upstash/redis` client can be tested without the cloud:
 *
 * - `POST /` with one command as a JSON array (`["SET","k","v","PX","100"]`) answers
 *   `{ "result": ... }`, or `{ "error": "..." }` with status 400 when Redis refused it;
 * - `POST /pipeline` with an array of commands answers an array of `{ result }` / `{ error }`,
 *   in order (not atomic);
 * - `POST /multi-exec` runs them as one MULTI/EXEC transaction;
 * - `Authorization: Bearer <token>` is required (401 otherwise);
 * - arguments are strings, finite numbers or booleans (the client's serializer passes
 *   `true` through as JSON), sent to Redis as their text;
 * - with `Upstash-Encoding: base64`, every string in a result is base64 (UTF-8) except a
 *   top-level status `OK`, which the client reads as is (inside an array the client decodes
 *   every string, so a status there is encoded too); integers and nulls stay JSON;
 * - like Upstash, each request runs on a Redis connection of its own (taken from a pool,
 *   and `RESET` before it is used again), so a blocking command stalls only its own request,
 *   and requests from racing clients really race in Redis.
 *
 * Every request is checked strictly (method, path, headers, body shape) and recorded with
 * the verdict, so a test can assert that each request the real client made passed: if the
 * client changes what it sends, the check fails instead of the stand-in drifting from it.
 */
export interface UpstashStandIn {
  url: string;
  token: string;
  /** Every request so far, with whether it passed the protocol check. */
  requests: RecordedRequest[];
  /** Until reset, every command is answered with this result instead of Redis's. */
  misbehave(result: unknown): void;
  close(): Promise<void>;
}

export interface RecordedRequest {
  path: string;
  /** The command names, one per command in the body (empty when the body was refused). */
  commands: string[];
  /** Undefined when the request passed the check; otherwise why it was refused. */
  refused?: string;
  status: number;
}

type Command = [string, ...Array<string | number | boolean>];

/** Headers the Upstash client may send that belong to the protocol (all lower case). */
const UPSTASH_HEADERS = new Set([
  'upstash-encoding',
  'upstash-sync-token',
  'upstash-telemetry-runtime',
  'upstash-telemetry-platform',
  'upstash-telemetry-sdk',
  'upstash-telemetry-retry',
]);
const PATHS = new Set(['/', '/pipeline', '/multi-exec']);
const COMMAND_NAME = /^[A-Za-z][A-Za-z0-9._-]*$/;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function checkHeaders(request: IncomingMessage, token: string): void {
  const auth = request.headers.authorization;
  if (auth === undefined) throw new Refusal(401, 'missing Authorization header');
  if (auth !== `Bearer ${token}`) throw new Refusal(401, 'wrong bearer token');
  const type = request.headers['content-type'];
  if (type !== 'application/json') throw new Refusal(400, `content-type ${type}`);
  for (const name of Object.keys(request.headers)) {
    if (name.startsWith('upstash-') && !UPSTASH_HEADERS.has(name)) {
      throw new Refusal(400, `unknown protocol header ${name}`);
    }
  }
  const encoding = request.headers['upstash-encoding'];
  if (encoding !== undefined && encoding !== 'base64') {
    throw new Refusal(400, `unknown Upstash-Encoding ${encoding}`);
  }
}

function checkCommand(value: unknown, where: string): Command {
  if (!Array.isArray(value) || value.length === 0) {
    throw new Refusal(400, `${where}: a command must be a non-empty array`);
  }
  const [name, ...args] = value as unknown[];
  if (typeof name !== 'string' || !COMMAND_NAME.test(name)) {
    throw new Refusal(400, `${where}: the command name must be a word`);
  }
  for (const [index, arg] of args.entries()) {
    const ok =
      typeof arg === 'string' ||
      typeof arg === 'boolean' ||
      (typeof arg === 'number' && Number.isFinite(arg));
    if (!ok) throw new Refusal(400, `${where}: argument ${index + 1} is ${typeof arg}`);
  }
  return value as Command;
}

function checkBody(path: string, body: unknown): Command[] {
  if (path === '/') return [checkCommand(body, 'body')];
  if (!Array.isArray(body) || body.length === 0) {
    throw new Refusal(400, `${path}: body must be a non-empty array of commands`);
  }
  return body.map((command, index) => checkCommand(command, `command ${index}`));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Refusal(413, 'body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A RESP reply as Upstash's JSON: `{ result }` or `{ error }`. */
function toEntry(reply: RespReply, base64: boolean): { result: unknown } | { error: string } {
  if (reply.type === 'error') return { error: reply.value };
  return { result: toJson(reply, base64) };
}

/** `nested`: inside an array, where even a status `OK` is encoded. */
function toJson(reply: RespReply, base64: boolean, nested = false): unknown {
  switch (reply.type) {
    case 'error':
      return reply.value;
    case 'integer':
      return reply.value;
    case 'array':
      return reply.value === null ? null : reply.value.map((item) => toJson(item, base64, true));
    case 'status':
      return base64 && (nested || reply.value !== 'OK') ? encode(reply.value) : reply.value;
    case 'bulk':
      return reply.value === null || !base64 ? reply.value : encode(reply.value);
  }
}

function encode(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function send(response: ServerResponse, status: number, body: unknown, syncToken?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (syncToken !== undefined) headers['upstash-sync-token'] = syncToken;
  response.writeHead(status, headers);
  response.end(JSON.stringify(body));
}

/** Idle connections kept for the next requests; more are closed after use. */
const MAX_IDLE_CONNECTIONS = 8;

/**
 * Redis connections, one per request at a time. A connection goes back to the pool only
 * after `RESET` (which ends a transaction, a subscription, a `SELECT`, and logs out) and a
 * fresh `AUTH` both succeeded, so no request sees state another left behind.
 */
class RedisPool {
  readonly #idle: RespConnection[] = [];
  readonly #all = new Set<RespConnection>();
  #closed = false;

  constructor(
    readonly port: number,
    readonly password: string,
  ) {}

  async use<T>(work: (connection: RespConnection) => Promise<T>): Promise<T> {
    const connection = await this.#take();
    let reusable = false;
    try {
      const result = await work(connection);
      reusable = await this.#reset(connection);
      return result;
    } finally {
      this.#give(connection, reusable);
    }
  }

  close(): void {
    this.#closed = true;
    for (const connection of this.#all) connection.close();
    this.#all.clear();
    this.#idle.length = 0;
  }

  async #take(): Promise<RespConnection> {
    for (let idle = this.#idle.pop(); idle; idle = this.#idle.pop()) {
      if (!idle.closed) return idle;
      this.#all.delete(idle);
    }
    const opened = await RespConnection.open(this.port, this.password);
    this.#all.add(opened);
    if (this.#closed) opened.close();
    return opened;
  }

  async #reset(connection: RespConnection): Promise<boolean> {
    try {
      const [reset, auth] = await connection.sendMany([['RESET'], ['AUTH', this.password]]);
      return reset?.type === 'status' && auth?.type === 'status';
    } catch {
      return false;
    }
  }

  #give(connection: RespConnection, reusable: boolean): void {
    if (reusable && !this.#closed && this.#idle.length < MAX_IDLE_CONNECTIONS) {
      this.#idle.push(connection);
      return;
    }
    this.#all.delete(connection);
    connection.close();
  }
}

export async function startUpstashStandIn(options: {
  redisPort: number;
  redisPassword: string;
  token: string;
}): Promise<UpstashStandIn> {
  const requests: RecordedRequest[] = [];
  const pool = new RedisPool(options.redisPort, options.redisPassword);
  let misbehaving: { result: unknown } | undefined;
  let syncCounter = 0;

  const run = async (path: string, commands: Command[], base64: boolean) => {
    if (misbehaving) {
      const entry = misbehaving;
      return path === '/'
        ? { status: 200, body: entry }
        : { status: 200, body: commands.map(() => entry) };
    }
    const asText = commands.map((command) => command.map(String));
    return pool.use(async (connected) => {
      if (path === '/') {
        const [reply] = await connected.sendMany(asText);
        const entry = toEntry(reply as RespReply, base64);
        return { status: 'error' in entry ? 400 : 200, body: entry };
      }
      if (path === '/pipeline') {
        const replies = await connected.sendMany(asText);
        return { status: 200, body: replies.map((reply) => toEntry(reply, base64)) };
      }
      const replies = await connected.sendMany([['MULTI'], ...asText, ['EXEC']]);
      const exec = replies.at(-1) as RespReply;
      if (exec.type === 'error') return { status: 400, body: { error: exec.value } };
      const results = exec.type === 'array' && exec.value ? exec.value : [];
      return { status: 200, body: results.map((reply) => toEntry(reply, base64)) };
    });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    const record: RecordedRequest = { path, commands: [], status: 0 };
    requests.push(record);
    try {
      if (request.method !== 'POST') throw new Refusal(405, `method ${request.method}`);
      if (!PATHS.has(path)) throw new Refusal(404, `unknown path ${path}`);
      checkHeaders(request, options.token);
      let body: unknown;
      try {
        body = JSON.parse(await readBody(request));
      } catch (error) {
        if (error instanceof Refusal) throw error;
        throw new Refusal(400, 'body is not JSON');
      }
      const commands = checkBody(path, body);
      record.commands = commands.map(([name]) => name.toUpperCase());
      const base64 = request.headers['upstash-encoding'] === 'base64';
      const hasSync = request.headers['upstash-sync-token'] !== undefined;
      let answer: { status: number; body: unknown };
      try {
        answer = await run(path, commands, base64);
      } catch {
        answer = { status: 500, body: { error: 'ERR the database cannot be reached' } };
      }
      record.status = answer.status;
      send(response, answer.status, answer.body, hasSync ? `sync-${++syncCounter}` : undefined);
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(500, String(error));
      record.refused = refusal.message;
      record.status = refusal.status;
      send(response, refusal.status, { error: refusal.message });
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token: options.token,
    requests,
    misbehave(result) {
      misbehaving = result === undefined ? undefined : { result };
    },
    async close() {
      pool.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
