import type { ServerResponse } from 'node:http';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, ConfigurationError } from '../src/index.js';
import { dropsSignal, pipesBody, teesBody } from './support/fetch-wrappers.js';
import { rpcIdOf, TEST_KEY, toolsCallAnswer } from './support/fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/*
 * Red team of wave 4j's body read (3893976): every body, framed or not, is read by
 * BoundedBodyReader, whose stop hook cancels its stream. Attacked with loopback servers (the
 * test server, and a raw TCP one for framing HTTP servers refuse to send) and fetch options that
 * drop the signal, tee or pipe the body, or hand back a body already read. Each R test failed on
 * 3893976; the others held there (and on 7082293 unless said).
 */

let server: TestServer | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A framed JSON answer (1 MB announced) trickling a space every 10 ms after `headersAfterMs`;
 * counts the connections that closed.
 */
function trickling(closed: { count: number }, headersAfterMs = 0) {
  return (request: { url: string }, response: ServerResponse) => {
    let timer: NodeJS.Timeout | undefined;
    response.on('close', () => {
      clearInterval(timer);
      closed.count++;
    });
    setTimeout(() => {
      if (response.destroyed) return;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000000' });
      response.write(request.url.startsWith('/v1/') ? '{"websites":' : '{"jsonrpc":"2.0",');
      timer = setInterval(() => response.write(' '), 10);
    }, headersAfterMs);
  };
}

const clientFor = (
  origin: string,
  options: Partial<ConstructorParameters<typeof CatalogClient>[0]> = {},
) =>
  new CatalogClient({
    apiKey: TEST_KEY,
    baseUrl: origin,
    mcpUrl: origin,
    maxRetries: 0,
    ...options,
  });

const nameOf = (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (error: Error) => error.name,
  );

describe('R: a stopped call releases every answer it was sent', () => {
  // R1. Severity: low (a connection, and what it buffers, held after the call; S4's class, older
  // than 3893976). With a fetch option that drops the signal, a call that stops while fetch still
  // waits for the headers ends at once (`scope.until`), but the fetch goes on: the answer it
  // later gives was never read nor cancelled, so its connection stayed open until the service
  // ended the body (never, for one that trickles). Who gains: a slow or hostile service holds the
  // client's sockets. Measured: 60 calls stopped at random moments of a trickling answer through
  // such a fetch left 55 connections open (5 closed; 0 on 7082293).
  it('R1: an answer that comes after the call timed out is cancelled', async () => {
    const closed = { count: 0 };
    server = await startTestServer(trickling(closed, 150));
    const client = clientFor(server.origin, { fetch: dropsSignal, timeoutMs: 50 });
    expect(await nameOf(client.websites.search({ query: 'x' }))).toBe('TimeoutError');
    expect(await nameOf(client.catalog.search({ query: 'x' }))).toBe('TimeoutError');
    await wait(600);
    expect(closed.count).toBe(2);
  });

  // R1, at random moments: before the headers, during the body, framed REST and MCP answers,
  // by timeout and by abort, through a fetch option that drops the signal or pipes the body.
  // Held through a fetch option that tees the body to a log: each call ends in time (its log
  // reading on keeps the connection: the option's choice, not the client's).
  for (const [name, wrapper, closes] of [
    ['drops the signal', dropsSignal, 60],
    ['pipes the body', pipesBody, 60],
    ['tees the body', teesBody, 0],
  ] as const) {
    it(`R1: 60 calls stopped at random moments, the fetch option ${name}: all end in time and close`, async () => {
      const closed = { count: 0 };
      server = await startTestServer(trickling(closed, 40));
      const client = clientFor(server.origin, { fetch: wrapper });
      const late: number[] = [];
      const names = await Promise.all(
        Array.from({ length: 60 }, async (_, index) => {
          const at = 5 + ((index * 37) % 150);
          const caller = new AbortController();
          const options = index % 2 === 0 ? { timeoutMs: at } : { signal: caller.signal };
          let stoppedAt = 0;
          setTimeout(() => {
            stoppedAt = performance.now();
            caller.abort();
          }, at);
          const call =
            index % 3 === 0
              ? client.catalog.search({ query: 'x' }, options)
              : client.websites.search({ query: 'x' }, options);
          const ended = await nameOf(call);
          late.push(performance.now() - stoppedAt);
          return ended === (index % 2 === 0 ? 'TimeoutError' : 'AbortError');
        }),
      );
      expect(names.filter((right) => !right)).toEqual([]);
      expect(Math.max(...late)).toBeLessThan(250);
      await wait(500);
      expect(closed.count).toBe(closes);
    });
  }
});

describe('held: an error answer still arriving when the call stops', () => {
  // Held: a framed 500 (REST) or 502 (MCP) body trickling through a fetch option that drops the
  // signal ends the call at timeoutMs, and its connection closes.
  it('a trickling framed error body is cancelled at the timeout', async () => {
    const closed = { count: 0 };
    server = await startTestServer((request, response) => {
      response.writeHead(request.url.startsWith('/v1/') ? 500 : 502, {
        'content-type': 'application/json',
        'content-length': '1000000',
      });
      const timer = setInterval(() => response.write(' '), 10);
      response.on('close', () => {
        clearInterval(timer);
        closed.count++;
      });
    });
    const client = clientFor(server.origin, { fetch: dropsSignal, timeoutMs: 200 });
    const started = performance.now();
    expect(await nameOf(client.websites.search({ query: 'x' }))).toBe('TimeoutError');
    expect(await nameOf(client.catalog.search({ query: 'x' }))).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(1_000);
    await wait(300);
    expect(closed.count).toBe(2);
  });
});

describe('R: a fetch option that hands back a body already read', () => {
  /** Reads the body (for a log, say) and hands the same answer back. */
  const readsBody: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    await answer.text();
    return answer;
  };
  /** Takes a reader of the body and hands the answer back. */
  const locksBody: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    answer.body?.getReader();
    return answer;
  };

  // R2. Severity: low (a misbehaving fetch option; a typed-error guarantee). Since 3893976 every
  // body is read by BoundedBodyReader, whose `getReader()` throws a raw TypeError ("ReadableStream
  // is locked") out of the call when the fetch option read or locked the body; on 7082293 a
  // framed body gave a ConnectionError (retried, each time alike) and an unframed one the same
  // TypeError. Who gains: nobody hostile; a user whose logging wrapper consumed the body gets an
  // untyped error that does not say which option is wrong.
  for (const [name, wrapper] of [
    ['reads', readsBody],
    ['locks', locksBody],
  ] as const) {
    for (const framed of [true, false]) {
      it(`R2: a fetch option that ${name} the body (${framed ? 'framed' : 'chunked'}) is a ConfigurationError naming it`, async () => {
        server = await startTestServer((request, response) => {
          const body = request.url.startsWith('/v1/')
            ? '{"websites":[]}'
            : JSON.stringify(toolsCallAnswer(rpcIdOf(request.body)));
          response.writeHead(200, {
            'content-type': 'application/json',
            ...(framed && { 'content-length': String(Buffer.byteLength(body)) }),
          });
          response.end(body);
        });
        const client = clientFor(server.origin, { fetch: wrapper, maxRetries: 2 });
        for (const call of [
          client.websites.search({ query: 'x' }),
          client.catalog.search({ query: 'x' }),
        ]) {
          const error = await call.catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(ConfigurationError);
          expect((error as Error).message).toMatch(/option fetch/);
        }
        // Not retried: the same option would read the next body too.
        expect(server.requests).toHaveLength(2);
      });
    }
  }
});

describe('R: a body of other than bytes', () => {
  // R3. Severity: low (memory past maxResponseBytes; needs a fetch option that re-streams the
  // body as text, e.g. through a TextDecoderStream; older than 3893976). A chunk that is not a
  // Uint8Array has no `byteLength`: the count became NaN, `NaN > limit` never held, and every
  // chunk was kept until the body ended, whatever its size (on 7082293 a framed body went to
  // `text()`, which keeps all as well), then a raw TypeError. Who gains: a service answering
  // without end through such a wrapper holds the client's memory until the call times out.
  // Also other views than Uint8Array: a DataView's bytes were counted, but SSE counted its
  // `length` (none: NaN) and `concatChunks` copied nothing of it.
  const restreams =
    (transform: (chunk: Uint8Array) => unknown): typeof fetch =>
    async (input, init) => {
      const answer = await dropsSignal(input, init);
      const other = answer.body?.pipeThrough(
        new TransformStream({ transform: (chunk, to) => to.enqueue(transform(chunk)) }),
      );
      return new Response(other as ReadableStream<Uint8Array>, answer);
    };
  for (const [name, transform] of [
    ['text', (chunk: Uint8Array) => new TextDecoder().decode(chunk)],
    ['DataView', (chunk: Uint8Array) => new DataView(chunk.buffer, chunk.byteOffset, chunk.length)],
    ['Uint16Array', (chunk: Uint8Array) => new Uint16Array(chunk)],
  ] as const) {
    it(`R3: a fetch option that gives ${name} chunks fails at the first, typed`, async () => {
      const closed = { count: 0 };
      server = await startTestServer(trickling(closed));
      const client = clientFor(server.origin, { fetch: restreams(transform), timeoutMs: 2_000 });
      for (const call of [
        client.websites.search({ query: 'x' }),
        client.catalog.search({ query: 'x' }),
      ]) {
        const error = await call.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message).toMatch(/option fetch/);
      }
      await wait(300);
      expect(closed.count).toBe(2);
    });
  }

  // Held: a Uint8Array of another realm (a test environment's) is bytes all the same.
  it('a Uint8Array of another realm is read', async () => {
    server = await startTestServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"websites":[]}');
    });
    const OtherUint8Array = runInNewContext('Uint8Array') as Uint8ArrayConstructor;
    const client = clientFor(server.origin, {
      fetch: restreams((chunk) => new OtherUint8Array(chunk)),
    });
    expect(await client.websites.search({ query: 'x' })).toMatchObject({ websites: [] });
  });
});

/** A raw loopback server: `answer` writes whatever bytes it likes on the socket. */
async function rawServer(answer: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const raw = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => answer(socket));
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        raw.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
}

/** Writes a head, then each part in its own packet, 5 ms apart; then `then`. */
function inPackets(socket: Socket, head: string[], parts: Buffer[], then?: () => void) {
  socket.setNoDelay(true);
  socket.write(`HTTP/1.1 ${head.join('\r\n')}\r\n\r\n`);
  let index = 0;
  const next = () => {
    const part = parts[index++];
    if (part === undefined) return then?.();
    socket.write(part, () => setTimeout(next, 5));
  };
  next();
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
  );
const BOM = [0xef, 0xbb, 0xbf];

/** `client.request`'s data, or the error's name. */
async function answerTo(origin: string, limits: { maxResponseBytes?: number } = {}) {
  const client = clientFor(origin, { timeoutMs: 5_000, ...limits });
  return client
    .request({ operation: 'probe', method: 'GET', path: '/v1/probe', retry: 'idempotent' })
    .then(
      (answer) => answer.data,
      (error: Error & { requestSent?: boolean; limitName?: string }) =>
        `${error.name}${error.requestSent ? ' (sent)' : ''}`,
    );
}

describe('held: text decoded as before, framed or not, in any packets', () => {
  // Held (12 bodies x framed/chunked x whole/byte per packet): what fetch's `text()` gave on
  // 7082293, but for two BOMs (below): a BOM stripped, invalid bytes and a surrogate's bytes
  // U+FFFD each, characters split across packets whole.
  const cases: [string, Buffer, unknown][] = [
    ['plain', bytes('{"a":"x"}'), { a: 'x' }],
    ['a BOM', bytes(BOM, '{"a":"x"}'), { a: 'x' }],
    ['a BOM only', bytes(BOM), undefined],
    ['a BOM inside', bytes('{"a":"', BOM, '"}'), { a: '\uFEFF' }],
    ['invalid bytes', bytes('{"a":"', [0xff, 0xc0, 0xaf], '"}'), { a: '\uFFFD'.repeat(3) }],
    ['a lone surrogate', bytes('{"a":"', [0xed, 0xa0, 0x80], '"}'), { a: '\uFFFD'.repeat(3) }],
    ['multi-byte characters', bytes('{"a":"😀é中"}'), { a: '😀é中' }],
    ['a cut character at the end', bytes('{"a":1}', [0xf0, 0x9f]), 'ProtocolError'],
    ['nothing', bytes(''), undefined],
  ];
  for (const [name, body, expected] of cases) {
    for (const framing of ['framed', 'chunked'] as const) {
      for (const packets of ['whole', 'byte by byte'] as const) {
        it(`${name}, ${framing}, ${packets}`, async () => {
          const parts = packets === 'whole' ? [body] : [...body].map((byte) => Buffer.from([byte]));
          const chunked = (part: Buffer) =>
            bytes(`${part.length.toString(16)}\r\n`, [...part], '\r\n');
          const origin = await rawServer((socket) =>
            framing === 'framed'
              ? inPackets(
                  socket,
                  ['200 OK', 'content-type: application/json', `content-length: ${body.length}`],
                  parts,
                )
              : inPackets(
                  socket,
                  ['200 OK', 'content-type: application/json', 'transfer-encoding: chunked'],
                  [...parts.filter((part) => part.length > 0).map(chunked), bytes('0\r\n\r\n')],
                ),
          );
          expect(await answerTo(origin)).toEqual(expected);
        });
      }
    }
  }

  // Informational: two BOMs. One is stripped (WHATWG "UTF-8 decode", and an unframed body on
  // 7082293); the second is content, which JSON refuses. On 7082293 a framed body went through
  // undici's `text()`, which strips a BOM and then decodes with a decoder that strips another.
  it('two BOMs: one stripped, framed or not (7082293 stripped both of a framed body)', async () => {
    const body = bytes(BOM, BOM, '{"a":1}');
    const framed = await rawServer((socket) =>
      inPackets(
        socket,
        ['200 OK', 'content-type: application/json', `content-length: ${body.length}`],
        [body],
      ),
    );
    expect(await answerTo(framed)).toBe('ProtocolError');
  });
});

describe('held: framing, encodings and limits', () => {
  const json = 'content-type: application/json';
  // Each: the head after the status line, the parts, then what the socket does; what the call gives.
  const cases: [string, string[], Buffer[], 'end' | 'destroy' | 'stay', unknown][] = [
    [
      'a Content-Length past the body, then the end',
      [json, 'content-length: 100'],
      [bytes('{"a":1}')],
      'end',
      'ConnectionError (sent)',
    ],
    [
      'a Content-Length past the body, then a reset',
      [json, 'content-length: 100'],
      [bytes('{"a":1}')],
      'destroy',
      'ConnectionError (sent)',
    ],
    [
      'a Content-Length short of the body',
      [json, 'content-length: 5'],
      [bytes('{"a":1}')],
      'stay',
      'ProtocolError',
    ],
    [
      'a Content-Length of 0 with bytes after',
      [json, 'content-length: 0'],
      [bytes('{"a":1}')],
      'stay',
      undefined,
    ],
    [
      'a chunked body cut by a reset',
      [json, 'transfer-encoding: chunked'],
      [bytes('7\r\n{"a":1')],
      'destroy',
      'ConnectionError (sent)',
    ],
    [
      'a 500 framed body cut by a reset',
      ['content-length: 100'],
      [bytes('{"detail":')],
      'destroy',
      'ConnectionError (sent)',
    ],
    [
      'a body to the connection end',
      [json, 'connection: close'],
      [bytes('{"a":1}')],
      'end',
      { a: 1 },
    ],
    [
      'gzip, framed',
      [json, 'content-encoding: gzip', `content-length: ${gzipSync('{"a":1}').length}`],
      [gzipSync('{"a":1}')],
      'stay',
      { a: 1 },
    ],
    [
      'gzip that is not',
      [json, 'content-encoding: gzip', 'content-length: 7'],
      [bytes('{"a":1}')],
      'stay',
      'ProtocolError',
    ],
    [
      'br, framed',
      [json, 'content-encoding: br', `content-length: ${brotliCompressSync('{"a":1}').length}`],
      [brotliCompressSync('{"a":1}')],
      'stay',
      { a: 1 },
    ],
    [
      'br that is not',
      [json, 'content-encoding: br', 'content-length: 7'],
      [bytes('{"a":1}')],
      'stay',
      'ProtocolError',
    ],
  ];
  for (const [name, head, parts, then, expected] of cases) {
    it(name, async () => {
      const status = name.includes('500') ? '500 Internal Server Error' : '200 OK';
      const origin = await rawServer((socket) =>
        inPackets(socket, [status, ...head], parts, () => {
          if (then === 'end') socket.end();
          if (then === 'destroy') socket.destroy();
        }),
      );
      expect(await answerTo(origin)).toEqual(expected);
    });
  }

  // Held: the limit counts decoded bytes, framed or not: 1000 bytes pass, 1001 do not, nor
  // 5000 spaces gzipped into a few dozen.
  it('maxResponseBytes: exactly the limit passes, a byte over and a small gzip bomb do not', async () => {
    const spaces = (size: number) => bytes('{}', ' '.repeat(size - 2));
    for (const [body, encoding, expected] of [
      [spaces(1000), undefined, {}],
      [spaces(1001), undefined, 'ResponseTooLargeError'],
      [gzipSync(spaces(5000)), 'gzip', 'ResponseTooLargeError'],
    ] as const) {
      const origin = await rawServer((socket) =>
        inPackets(
          socket,
          [
            '200 OK',
            json,
            `content-length: ${body.length}`,
            ...(encoding ? [`content-encoding: ${encoding}`] : []),
          ],
          [body],
        ),
      );
      expect(await answerTo(origin, { maxResponseBytes: 1000 })).toEqual(expected);
    }
  });

  // Held: a framed answer past the limit, still arriving, is cancelled: its connection closes.
  it('a framed answer past maxResponseBytes closes its connection', async () => {
    const closed = { count: 0 };
    server = await startTestServer(trickling(closed));
    const client = clientFor(server.origin, { fetch: dropsSignal, maxResponseBytes: 100 });
    expect(await nameOf(client.websites.search({ query: 'x' }))).toBe('ResponseTooLargeError');
    await wait(300);
    expect(closed.count).toBe(1);
  });
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe('held: a framed answer sent a byte per packet holds about its size', () => {
  // Fixed by 3893976 itself, not said there: on 7082293 a framed answer within the limit went
  // through fetch's `text()`, which holds every chunk (S3's ~200x): 10.4 MB peak for these
  // 50,000 bytes (0.1 MB on 3893976). Fails on 7082293.
  it('a framed JSON answer of 50,000 one-byte packets', async () => {
    const body = `{"websites":[],"pad":"${'x'.repeat(50_000)}"}`;
    server = await startTestServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
      });
      response.socket?.setNoDelay(true);
      let sent = 0;
      const next = () => {
        if (sent < body.length) response.write(body[sent++], () => setImmediate(next));
      };
      next();
    });
    const client = clientFor(server.origin, { timeoutMs: 60_000 });
    const before = heapUsed();
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, heapUsed() - before);
    }, 100);
    try {
      await client.websites.search({ query: 'x' });
    } finally {
      clearInterval(timer);
    }
    expect(peak).toBeLessThan(5_000_000);
  }, 30_000);
});

describe('R: a retried call keeps nothing of its failed attempts', () => {
  // R4. Severity: low (memory within one call; needs a large maxRetries). Each body's stop hook
  // stayed in the call's set until the call ended, holding its reader and answer (~4.4 kB): since
  // 3893976 a framed error answer has one too, so a service answering 503 with `Retry-After: 0`
  // made a call with maxRetries 3000 hold 17 MB (3.9 MB on 7082293), growing with each attempt
  // until timeoutMs. Who gains: a service that refuses fast, against a patient client.
  it('R4: 2,500 retried 503 answers hold about nothing', async () => {
    server = await startTestServer((_request, response) => {
      const body = '{"detail":"busy"}';
      response.writeHead(503, {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'retry-after': '0',
      });
      response.end(body);
    });
    const client = clientFor(server.origin, {
      maxRetries: 2_500,
      maxRetryDelayMs: 1e9,
      timeoutMs: 60_000,
    });
    const before = heapUsed();
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, heapUsed() - before);
    }, 200);
    try {
      expect(await nameOf(client.websites.search({ query: 'x' }))).toBe('ServerError');
    } finally {
      clearInterval(timer);
    }
    expect(server.requests).toHaveLength(2_501);
    expect(peak).toBeLessThan(6_000_000);
  }, 60_000);
});
