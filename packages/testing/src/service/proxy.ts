import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the agent's client sent to the catalog service, and what came back. */
export interface ServiceExchange {
  method: string;
  /** The path as sent, e.g. `/api/v1/websites/search?query=x` or `/ucp/mcp`. */
  path: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: string;
  /** The answer's status; `undefined` when the connection dropped before any answer. */
  status: number | undefined;
  /** The answer's body as received (up to {@link MAX_RECORDED_BYTES}). */
  responseBody: string;
  /** True when the answer was cut off (dropped or truncated by a fault). */
  cut: boolean;
  /** When the request arrived (`performance.now()`), to order it against approvals. */
  at: number;
}

/** Rewrites an answer's body before the client gets it (e.g. to echo the key). */
export type AnswerRewrite = (body: string, exchange: ServiceExchange) => string;

/** Largest request body forwarded and largest answer body recorded or rewritten. */
const MAX_RECORDED_BYTES = 10 * 1024 * 1024;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);

function forwardable(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_RECORDED_BYTES) throw new Error('request body too large for the test service');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A loopback proxy in front of the emulator: forwards every request as it is, passes every
 * answer on as it comes (a fault that drops or cuts the emulator's answer drops or cuts the
 * client's too), and records each exchange, so a scenario knows exactly what the service
 * answered. With `rewrite`, whole answers are rewritten before they are sent.
 */
export class ServiceProxy {
  /** Every exchange, in the order the requests arrived. */
  readonly exchanges: ServiceExchange[] = [];
  /** Set to rewrite answers (whole bodies); unset to pass them through. */
  rewrite: AnswerRewrite | undefined;
  #server: Server | undefined;

  constructor(private readonly target: URL) {}

  /** Starts listening on 127.0.0.1; returns the proxy's origin. */
  async start(): Promise<string> {
    const server = createServer((request, response) => {
      this.#handle(request, response).catch(() => response.socket?.destroy());
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const at = performance.now();
    const body = await readBody(request);
    const exchange: ServiceExchange = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      requestHeaders: request.headers,
      requestBody: body.toString('utf8'),
      status: undefined,
      responseBody: '',
      cut: false,
      at,
    };
    this.exchanges.push(exchange);
    // Joined as text, so no path (`//host/…`, an absolute URL) can lead anywhere but the emulator.
    const upstream = httpRequest(`${this.target.origin}${exchange.path}`, {
      method: exchange.method,
      headers: this.#requestHeaders(request.headers),
    });
    upstream.on('response', (answer) => this.#relay(answer, response, exchange));
    // The emulator dropped the connection before answering: so does the proxy.
    upstream.on('error', () => {
      exchange.cut = true;
      response.socket?.destroy();
    });
    upstream.end(body);
  }

  /** A rewritten answer must arrive as text: no compression is asked for then. */
  #requestHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
    const forwarded = forwardable(headers);
    if (this.rewrite) delete forwarded['accept-encoding'];
    return forwarded;
  }

  #relay(answer: IncomingMessage, response: ServerResponse, exchange: ServiceExchange): void {
    exchange.status = answer.statusCode;
    const chunks: Buffer[] = [];
    let size = 0;
    const rewrite = this.rewrite;
    if (!rewrite) response.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
    answer.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_RECORDED_BYTES) chunks.push(chunk);
      if (!rewrite) response.write(chunk);
    });
    answer.on('end', () => {
      exchange.responseBody = Buffer.concat(chunks).toString('utf8');
      if (!rewrite) return void response.end();
      const text = rewrite(exchange.responseBody, exchange);
      const headers = { ...forwardable(answer.headers), 'content-length': Buffer.byteLength(text) };
      response.writeHead(answer.statusCode ?? 502, headers);
      response.end(text);
    });
    // A body cut off by the emulator (truncate, drop after headers) is cut off here too.
    answer.on('aborted', () => {
      exchange.cut = true;
      exchange.responseBody = Buffer.concat(chunks).toString('utf8');
      response.socket?.destroy();
    });
    answer.on('error', () => {
      exchange.cut = true;
      response.socket?.destroy();
    });
  }

  /** Stops listening and closes open connections. */
  close(): Promise<void> {
    const server = this.#server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
