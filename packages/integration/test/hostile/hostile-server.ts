import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';

/** A request as the hostile server read it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers one request, any way it likes (endless bodies, broken headers, dropped sockets). */
export type HostileHandler = (request: SeenRequest, response: ServerResponse) => unknown;

/** A real HTTP server on loopback that misbehaves on purpose. */
export interface HostileServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: SeenRequest[];
  handle(handler: HostileHandler): void;
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

/** Starts a server on a free loopback port. */
export async function startHostileServer(handler?: HostileHandler): Promise<HostileServer> {
  let current: HostileHandler = handler ?? ((_request, response) => response.end());
  const requests: SeenRequest[] = [];
  const server: Server = createServer(async (incoming, response) => {
    const seen = {
      method: incoming.method ?? '',
      url: incoming.url ?? '',
      headers: incoming.headers,
      body: await readBody(incoming),
    };
    requests.push(seen);
    await current(seen, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
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

/** What an endless writer did: how much it wrote before the client hung up. */
export interface EndlessWrite {
  /** Resolves with the bytes written once the connection closed (the client gave up). */
  closed: Promise<number>;
}

/**
 * Writes `chunk` to `sink` forever, honouring backpressure, until `response` closes. With
 * backpressure the server can only get ahead of the client's reading by the socket
 * buffers, so the bytes written bound what the client read.
 */
export function writeForever(
  response: ServerResponse,
  chunk: string | Buffer,
  sink: Writable = response,
): EndlessWrite {
  let written = 0;
  let open = true;
  const closed = new Promise<number>((resolve) => {
    response.once('close', () => {
      open = false;
      resolve(written);
    });
  });
  const pump = () => {
    while (open) {
      written += chunk.length;
      if (!sink.write(chunk)) {
        sink.once('drain', pump);
        return;
      }
    }
  };
  pump();
  return { closed };
}

/** A JSON-RPC `tools/call` answer with a minimal catalog result. */
export function catalogAnswer(id: unknown, extra: Record<string, unknown> = {}) {
  const structuredContent = {
    products: [
      {
        id: 'prod_1',
        title: 'Shoe',
        variants: [{ id: 'v1', title: 'One', url: 'https://shop.example/p?a=%7E1&b=c' }],
      },
    ],
  };
  return { jsonrpc: '2.0', id, result: { content: [], structuredContent }, ...extra };
}

/** The JSON-RPC id of a request body. */
export function rpcIdOf(body: string): unknown {
  return (JSON.parse(body) as { id: unknown }).id;
}

/** The rejection of a promise that must fail. */
export async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
