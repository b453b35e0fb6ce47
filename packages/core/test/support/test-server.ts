import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

// Returns anything: handlers are often one-line arrows around `response.end()`.
export type Handler = (request: ReceivedRequest, response: ServerResponse) => unknown;

/** A real HTTP server on loopback that records every request it reads. */
export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** Replaces the handler for the following requests. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts a loopback server; `port` 0 picks a free one. */
export async function startTestServer(handler?: Handler, port = 0): Promise<TestServer> {
  let current: Handler = handler ?? ((_request, response) => response.end());
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (incoming, response) => {
    const received: ReceivedRequest = {
      method: incoming.method ?? '',
      url: incoming.url ?? '',
      headers: incoming.headers,
      body: await readBody(incoming),
    };
    requests.push(received);
    await current(received, response);
  });
  // Node closes an idle keep-alive socket after 5 s; a client whose own idle timer ran late
  // (a busy machine) may send on a socket being closed, and a POST then fails with
  // UND_ERR_SOCKET: the likely cause of one seen in a core run under load (not reproduced).
  // Idle sockets stay open while a test runs (close() ends them); tests that drop
  // connections do so on purpose.
  server.keepAliveTimeout = 600_000;
  const bound = await listen(server, port);
  return {
    origin: `http://127.0.0.1:${bound}`,
    port: bound,
    requests,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (connections are refused). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server, 0);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends a JSON answer. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
