/**
 * A small round-robin HTTP proxy for trying several web chat instances behind one URL
 * (`pnpm chat --instances 2`). Each request goes to the next instance in turn, whatever
 * connection it came on, so consecutive requests of one shopper land on different
 * instances. Bodies stream through in both directions (a chat answer is server-sent events:
 * each chunk is passed on as it arrives, nothing is buffered).
 *
 * It adds nothing the instances would have to trust blindly: `Host`, `Origin`, cookies and
 * `Sec-Fetch-*` pass unchanged, so the instances' same-origin check judges the browser's
 * own request; `X-Forwarded-For` is replaced (never appended to) with the address the
 * request came from, and every other header a client could use to claim an address
 * (`Forwarded`, `X-Real-IP`, `True-Client-IP`, `CF-Connecting-IP`, ...) is removed, so a
 * client cannot choose the address its rate limit is counted by, whichever header an
 * instance reads.
 *
 * Memory stays bounded per client connection: requests pipelined on one connection are
 * passed on one at a time (the next once the answer to the one before has been handed to
 * the client), so a client that sends many and reads none holds one answer in the proxy,
 * not one per request; past {@link MAX_WAITING_PER_CONNECTION} waiting, the connection is
 * closed. It is a development tool, not a production load balancer: no TLS, no health
 * checks.
 */

import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/** One request the proxy passed on. */
export interface ProxiedRequest {
  /** Which instance it went to: an index into the targets. */
  instance: number;
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
}

/** Options of {@link startRoundRobinProxy}. */
export interface RoundRobinProxyOptions {
  /** The port to listen on (default 0: a free one). */
  port?: number;
  /** The address to listen on (default `127.0.0.1`). */
  host?: string;
  /** Called before each request is passed on, e.g. to log or count it. */
  onRequest?: (proxied: ProxiedRequest) => void;
  /** A request whose instance sends nothing for this long is cut (default 120 s). */
  idleTimeoutMs?: number;
}

/** A running proxy. */
export interface RunningProxy {
  /** The one URL users open, e.g. `http://127.0.0.1:3000/`. */
  url: string;
  port: number;
  /** Requests passed on to each instance so far, by index. */
  readonly counts: readonly number[];
  /** Of those, the ones each instance answered (its status line and headers arrived). */
  readonly answered: readonly number[];
  /** The instances' base URLs, e.g. `http://127.0.0.1:41234/`; until set, requests get 503. */
  setTargets(targets: readonly string[]): void;
  close(): Promise<void>;
}

// Hop-by-hop headers belong to one connection, not to the request (RFC 9110, 7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Headers that tell a server who the client is, or how it was reached. Only the proxy may
 * say that: a client's own are removed, and the proxy sets `X-Forwarded-For` alone.
 */
const CLIENT_ADDRESS = new Set([
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'fastly-client-ip',
]);

/**
 * Requests of one client connection that may wait behind the one being answered: browsers
 * do not pipeline, so only a script sends more, and it is cut off past this.
 */
export const MAX_WAITING_PER_CONNECTION = 8;

function endToEnd(headers: IncomingHttpHeaders, drop?: ReadonlySet<string>): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !HOP_BY_HOP.has(name) && !named.has(name) && !drop?.has(name),
    ),
  );
}

/** One client connection's requests: the one being answered, and those waiting behind it. */
interface Line {
  busy: boolean;
  waiting: Array<() => void>;
}

/**
 * Calls `handle` for one request of a connection at a time: the next starts once the answer
 * before it is finished (handed to the client's connection) or closed. Past `maxWaiting`
 * waiting requests, the connection is destroyed.
 */
function oneAtATime(
  handle: (incoming: IncomingMessage, outgoing: ServerResponse) => void,
  maxWaiting: number,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const lines = new WeakMap<Socket, Line>();
  return (incoming, outgoing) => {
    const socket = incoming.socket;
    let line = lines.get(socket);
    if (!line) {
      line = { busy: false, waiting: [] };
      lines.set(socket, line);
    }
    const current = line;
    const run = () => {
      if (socket.destroyed) {
        current.waiting.length = 0;
        return;
      }
      current.busy = true;
      let done = false;
      const next = () => {
        if (done) return;
        done = true;
        current.busy = false;
        current.waiting.shift()?.();
      };
      outgoing.once('finish', next);
      outgoing.once('close', next);
      handle(incoming, outgoing);
    };
    if (!current.busy) {
      run();
    } else if (current.waiting.length >= maxWaiting) {
      current.waiting.length = 0;
      socket.destroy();
    } else {
      current.waiting.push(run);
    }
  };
}

function refuse(response: ServerResponse, status: number, reason: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify({ error: reason }));
}

/** Starts the proxy; call `setTargets` before users arrive. */
export async function startRoundRobinProxy(
  options: RoundRobinProxyOptions = {},
): Promise<RunningProxy> {
  const { host = '127.0.0.1', idleTimeoutMs = 120_000 } = options;
  // Connections to the instances are reused: a request costs no new TCP handshake.
  const agent = new Agent({ keepAlive: true });
  let targets: URL[] = [];
  let counts: number[] = [];
  let answered: number[] = [];
  let next = 0;

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    if (targets.length === 0) {
      refuse(outgoing, 503, 'No instance is ready yet.');
      return;
    }
    const instance = next;
    next = (next + 1) % targets.length;
    const target = targets[instance] as URL;
    const path = incoming.url ?? '/';
    options.onRequest?.({ instance, method: incoming.method ?? 'GET', path });
    counts[instance] = (counts[instance] ?? 0) + 1;
    const upstream = request({
      agent,
      hostname: target.hostname,
      port: target.port,
      method: incoming.method,
      path,
      headers: {
        ...endToEnd(incoming.headers, CLIENT_ADDRESS),
        'x-forwarded-for': incoming.socket.remoteAddress ?? 'unknown',
      },
    });
    upstream.setTimeout(idleTimeoutMs, () => upstream.destroy(new Error('instance idle')));
    upstream.on('response', (answer) => {
      answered[instance] = (answered[instance] ?? 0) + 1;
      outgoing.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      // Headers now, so a browser sees a streamed answer start before its first chunk.
      outgoing.flushHeaders();
      answer.pipe(outgoing);
      answer.on('error', () => outgoing.destroy());
    });
    upstream.on('error', () => refuse(outgoing, 502, 'The chat server did not answer.'));
    // The client gone (tab closed, stream aborted): stop the instance's work too.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.on('error', () => upstream.destroy());
    incoming.pipe(upstream);
  };

  const server = createServer(oneAtATime(forward, MAX_WAITING_PER_CONNECTION));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    port,
    get counts() {
      return [...counts];
    },
    get answered() {
      return [...answered];
    },
    setTargets(urls) {
      targets = urls.map((url) => new URL(url));
      counts = targets.map(() => 0);
      answered = targets.map(() => 0);
      next = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
