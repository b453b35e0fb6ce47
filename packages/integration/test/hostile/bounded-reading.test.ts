import { createGzip } from 'node:zlib';
import { CatalogClient, type CatalogClientOptions, ProtocolError } from '@catalogkit/core';
import { ResponseTooLargeError } from '@catalogkit/core/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type EndlessWrite,
  failureOf,
  type HostileServer,
  startHostileServer,
  writeForever,
} from './hostile-server.js';

const KEY = 'ck_hostile_3f9a2c7e5b1d4a60';
const MIB = 1024 * 1024;
// What the socket buffers on both ends can hold beyond what the client read: the server
// can get ahead of the reader by this much at most (backpressure), so bytes written bound
// bytes read. Generous, so a busy machine does not matter.
const SOCKET_SLACK = 16 * MIB;

let server: HostileServer;
let writer: EndlessWrite | undefined;
beforeEach(async () => {
  server = await startHostileServer();
  writer = undefined;
});
afterEach(() => server.close());

function client(options: CatalogClientOptions = {}) {
  return new CatalogClient({
    apiKey: KEY,
    baseUrl: server.origin,
    mcpUrl: server.origin,
    maxRetries: 0,
    // Far longer than any cap takes to reach: a TimeoutError would mean the cap failed.
    timeoutMs: 120_000,
    ...options,
  });
}

/** Checks the typed error, that the server saw the client hang up, and how much it wrote. */
async function expectCapped(
  call: Promise<unknown>,
  limit: 'maxResponseBytes' | 'maxSseLineBytes',
  limitBytes: number,
) {
  const error = await failureOf(call);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect(error).toBeInstanceOf(ProtocolError);
  expect(error).toMatchObject({ code: 'protocol', limit, limitBytes });
  expect((error as Error).message).toContain(String(limitBytes));
  expect((error as Error).message).toContain(limit);
  const written = await writer?.closed;
  expect(written).toBeLessThan(limitBytes + SOCKET_SLACK);
  return error as ResponseTooLargeError;
}

const search = (c: CatalogClient) => c.catalog.search({ query: 'shoes' });

describe('answers without end are cut at the cap, with a typed error', () => {
  it('an endless JSON body stops at maxResponseBytes (REST)', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"websites":[');
      writer = writeForever(response, '{"id":"w","url":"https://x.example"},'.repeat(100));
    });
    const error = await expectCapped(
      client({ maxResponseBytes: MIB }).websites.search({ query: 'nike' }),
      'maxResponseBytes',
      MIB,
    );
    expect(error.message).not.toContain('x.example');
  });

  it('the default cap is 10 MiB', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      writer = writeForever(response, ' '.repeat(64 * 1024));
    });
    await expectCapped(client().websites.search({ query: 'nike' }), 'maxResponseBytes', 10 * MIB);
  });

  it('an endless JSON answer on the MCP endpoint stops at maxResponseBytes', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      writer = writeForever(response, '[0,0,0,0,0,0,0,0],'.repeat(1000));
    });
    await expectCapped(search(client({ maxResponseBytes: 2 * MIB })), 'maxResponseBytes', 2 * MIB);
  });

  it('an SSE line that never ends stops at maxSseLineBytes', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message\ndata: {"jsonrpc":"2.0","result":"');
      writer = writeForever(response, 'a'.repeat(16 * 1024));
    });
    await expectCapped(
      search(client({ maxSseLineBytes: 256 * 1024 })),
      'maxSseLineBytes',
      256 * 1024,
    );
  });

  it('the default SSE line cap is 4 MiB', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: ');
      writer = writeForever(response, 'b'.repeat(64 * 1024));
    });
    await expectCapped(search(client()), 'maxSseLineBytes', 4 * MIB);
  });

  it('an endless stream of short SSE events stops at maxResponseBytes', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      writer = writeForever(
        response,
        'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n'.repeat(50),
      );
    });
    await expectCapped(search(client({ maxResponseBytes: MIB })), 'maxResponseBytes', MIB);
  });

  it('an endless error body stops at maxResponseBytes, before it becomes a ServerError', async () => {
    server.handle((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      writer = writeForever(response, '<p>sorry</p>'.repeat(1000));
    });
    const error = await expectCapped(
      client({ maxResponseBytes: MIB }).websites.search({ query: 'nike' }),
      'maxResponseBytes',
      MIB,
    );
    expect(error.status).toBe(500);
  });

  it('a gzip bomb counts what it expands to, not what crossed the wire', async () => {
    let compressed = 0;
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip({ level: 9 });
      gzip.on('data', (chunk: Buffer) => {
        compressed += chunk.length;
      });
      gzip.pipe(response);
      writer = writeForever(response, Buffer.alloc(256 * 1024, 0x20), gzip);
    });
    const error = await failureOf(
      client({ maxResponseBytes: 4 * MIB }).websites.search({ query: 'nike' }),
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    await writer?.closed;
    // Whitespace compresses about 1000:1, so the cap was reached on decoded bytes.
    expect(compressed).toBeLessThan(MIB);
  });
});

describe('answers within the cap are unaffected', () => {
  it('a JSON answer just under the cap is read whole', async () => {
    const padding = 'p'.repeat(200 * 1024);
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ websites: [{ id: 'w', url: 'https://x.example', padding }] }));
    });
    const answer = await client({ maxResponseBytes: 256 * 1024 }).websites.search({
      query: 'nike',
    });
    expect(answer.websites[0]).toMatchObject({ id: 'w', padding });
  });
});

describe('memory stays bounded', () => {
  it('reading 8 endless answers in a row does not grow the heap by their size', async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      writer = writeForever(response, 'x'.repeat(64 * 1024));
    });
    const capped = client({ maxResponseBytes: 4 * MIB });
    let totalWritten = 0;
    let heapPeak = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    for (let run = 0; run < 8; run++) {
      await failureOf(capped.websites.search({ query: 'nike' }));
      totalWritten += (await writer?.closed) ?? 0;
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heapBefore);
    }
    // The server pushed well past 32 MiB in total; without the cap the client would hold
    // it. Each read holds at most one answer's 4 MiB plus the garbage of the last ones.
    expect(totalWritten).toBeGreaterThan(32 * MIB);
    expect(heapPeak).toBeLessThan(totalWritten);
  });
});
