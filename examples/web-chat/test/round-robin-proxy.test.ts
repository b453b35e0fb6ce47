import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_WAITING_PER_CONNECTION,
  type RunningProxy,
  startRoundRobinProxy,
} from '../src/dev/round-robin-proxy.js';

// The round-robin proxy of `pnpm chat --instances 2` on its own, in front of small node:http
// servers (no web chat needed): what it passes on, and what it holds for a client.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}/`;
}

/** The proxy in front of `upstream` (both targets: every request reaches it). */
async function proxyTo(upstream: Server): Promise<RunningProxy> {
  const url = await listen(upstream);
  const proxy = await startRoundRobinProxy();
  closers.push(proxy.close);
  proxy.setTargets([url, url]);
  return proxy;
}

/** A client connection sending `text` as is; `received()` is what came back so far. */
function rawClient(port: number, text: string): { socket: Socket; received(): string } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  socket.write(text);
  closers.push(async () => {
    socket.destroy();
  });
  return { socket, received: () => received };
}

const closed = (socket: Socket) =>
  socket.destroyed || socket.readyState === 'closed'
    ? Promise.resolve()
    : new Promise<void>((resolve) => socket.once('close', () => resolve()));

describe('the round-robin proxy', () => {
  it('passes pipelined requests of one connection on one at a time, answered in order', async () => {
    // The upstream holds each answer until the test lets it go: what it holds at once is
    // what the proxy passed on at once.
    const held: ServerResponse[] = [];
    let most = 0;
    const upstream = createServer((request, response) => {
      held.push(response);
      most = Math.max(most, held.length);
      response.setHeader('x-path', request.url ?? '');
    });
    const proxy = await proxyTo(upstream);
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const client = rawClient(proxy.port, ['/1', '/2', '/3', '/4', '/5'].map(get).join(''));
    for (let answered = 0; answered < 5; answered++) {
      await expect.poll(() => held.length).toBe(1);
      // Still one after a pause: the next waits for this answer.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(held.length).toBe(1);
      held.shift()?.end(`answer ${answered + 1}`);
    }
    await expect
      .poll(() =>
        client
          .received()
          .match(/answer \d/g)
          ?.join(' '),
      )
      .toBe('answer 1 answer 2 answer 3 answer 4 answer 5');
    expect(most).toBe(1);
  });

  it('a client that pipelines and never reads holds one answer in the proxy; past 8 waiting it is cut off', async () => {
    const body = Buffer.alloc(4 << 20, 0x61);
    let served = 0;
    const upstream = createServer((_request, response) => {
      served++;
      response.writeHead(200, { 'content-length': body.length });
      response.end(body);
    });
    const proxy = await proxyTo(upstream);
    const get = `GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    // Within the limit: the connection stays, and the upstream is asked for a few answers
    // only (each once the one before fits in the client's socket buffers), not all 8.
    const patient = rawClient(proxy.port, get.repeat(MAX_WAITING_PER_CONNECTION + 1));
    patient.socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(patient.socket.destroyed).toBe(false);
    expect(served).toBeLessThanOrEqual(3);
    patient.socket.destroy();
    // Past it: cut off at once, and no answer beyond the first was asked for.
    served = 0;
    const greedy = rawClient(proxy.port, get.repeat(200));
    greedy.socket.pause();
    await closed(greedy.socket);
    expect(served).toBeLessThanOrEqual(1);
  });

  it('removes every client address header it is sent, and sets X-Forwarded-For alone', async () => {
    let seen: IncomingHttpHeaders = {};
    const upstream = createServer((request, response) => {
      seen = request.headers;
      response.end('ok');
    });
    const proxy = await proxyTo(upstream);
    const claimed = {
      forwarded: 'for=9.9.9.9;proto=https;host=evil.example',
      'x-forwarded-for': '1.2.3.4',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-port': '443',
      'x-real-ip': '1.2.3.4',
      'true-client-ip': '1.2.3.4',
      'cf-connecting-ip': '1.2.3.4',
      'x-client-ip': '1.2.3.4',
      'x-cluster-client-ip': '1.2.3.4',
      'fastly-client-ip': '1.2.3.4',
    };
    const response = await fetch(proxy.url, { headers: { ...claimed, 'x-kept': 'yes' } });
    expect(await response.text()).toBe('ok');
    for (const name of Object.keys(claimed)) {
      if (name !== 'x-forwarded-for') expect(seen[name], name).toBe(undefined);
    }
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-kept']).toBe('yes');
  });
});
