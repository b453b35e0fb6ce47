import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultKind } from './tasks.js';

/**
 * A loopback proxy in front of the emulator that breaks a collection update AFTER the
 * emulator applied it, in the way the instance's request asks (`x-fault`, which it strips):
 * - `drop-after`: the connection is destroyed once the answer is in (the answer is lost);
 * - `500-after`: the client gets a 500 although the change was made;
 * - `truncate`: the full Content-Length, half the body, then the connection closes;
 * - `late-answer`: the answer is held past the client's time limit;
 * - `slow-apply`: the request reaches the emulator only after the client's time limit, so
 *   the change lands after the client gave up (and maybe after its repeat was decided).
 * The emulator's own faults (`emulator.faults`) cannot aim at one request among many sent
 * at once by several processes, nor answer a 500 after applying; everything else passes
 * through untouched.
 */
export interface FaultProxy {
  /** `http://127.0.0.1:PORT`; the REST base is `${origin}/api`. */
  origin: string;
  /** Faults injected so far, by kind. */
  injected: Record<FaultKind, number>;
  /** Resolves once every request received has reached the emulator and ended. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const FAULTS: readonly FaultKind[] = [
  'drop-after',
  '500-after',
  'truncate',
  'late-answer',
  'slow-apply',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function forward(target: URL, incoming: IncomingMessage, body: Buffer): Promise<Answer> {
  const { 'x-fault': _fault, ...passed } = incoming.headers;
  const headers = { ...passed, host: target.host };
  return new Promise((resolve, reject) => {
    const outgoing = request(
      new URL(incoming.url ?? '/', target),
      { method: incoming.method, headers },
      (response) => {
        readAll(response).then(
          (answerBody) =>
            resolve({
              status: response.statusCode ?? 502,
              headers: response.headers,
              body: answerBody,
            }),
          reject,
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function send(response: ServerResponse, answer: Answer): void {
  const headers = { ...answer.headers };
  delete headers['transfer-encoding'];
  headers['content-length'] = String(answer.body.byteLength);
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}

async function handle(
  target: URL,
  lateMs: number,
  injected: FaultProxy['injected'],
  incoming: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  // A client that gave up must not end the request: the change still reaches the emulator.
  response.on('error', () => undefined);
  incoming.socket.on('error', () => undefined);
  const body = await readAll(incoming);
  const asked = incoming.headers['x-fault'];
  const fault = incoming.method === 'PATCH' ? FAULTS.find((kind) => kind === asked) : undefined;
  if (fault) injected[fault] += 1;
  if (fault === 'slow-apply') await sleep(lateMs);
  const answer = await forward(target, incoming, body);
  if (fault === 'drop-after') {
    incoming.socket.destroy();
  } else if (fault === '500-after') {
    send(response, {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"detail":"Internal Server Error"}'),
    });
  } else if (fault === 'truncate') {
    response.writeHead(answer.status, {
      'content-type': String(answer.headers['content-type'] ?? 'application/json'),
      'content-length': String(answer.body.byteLength),
    });
    response.write(answer.body.subarray(0, Math.floor(answer.body.byteLength / 2)), () =>
      incoming.socket.destroy(),
    );
  } else {
    if (fault === 'late-answer') await sleep(lateMs);
    if (!response.destroyed) send(response, answer);
  }
}

/** Starts the proxy in front of `target` (the emulator's origin); `lateMs` times the late faults. */
export async function startFaultProxy(target: string, lateMs: number): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const pending = new Set<Promise<void>>();
  const injected = Object.fromEntries(FAULTS.map((kind) => [kind, 0])) as FaultProxy['injected'];
  const server = createServer((incoming, response) => {
    const work = handle(targetUrl, lateMs, injected, incoming, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end();
    });
    pending.add(work);
    void work.finally(() => pending.delete(work));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    injected,
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
