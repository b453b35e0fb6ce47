import { CatalogClient, ProtocolError } from '@catalogkit/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns } from './fuzz-runs.js';
import {
  catalogAnswer,
  type HostileServer,
  rpcIdOf,
  startHostileServer,
} from './hostile-server.js';

const RUNS = fuzzRuns(150);
const LINK = 'https://shop.example/p?a=%7E1&b=c';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

/** One SSE event, written with `eol` line ends; `data` may span several `data:` lines. */
function event(lines: string[], eol: string): string {
  return `${lines.join(eol)}${eol}${eol}`;
}

/** The data of `json` spread over `data:` lines (JSON allows a newline between tokens). */
function dataLines(json: string, splitAt: number[], space: boolean): string[] {
  const cuts = [...new Set(splitAt.map((at) => json.indexOf(',', at)).filter((at) => at > 0))].sort(
    (a, b) => a - b,
  );
  const parts: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    parts.push(json.slice(start, cut + 1));
    start = cut + 1;
  }
  parts.push(json.slice(start));
  return parts.map((part) => `data:${space ? ' ' : ''}${part}`);
}

const streams = fc.record({
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  splits: fc.array(fc.nat({ max: 400 }), { maxLength: 4 }),
  space: fc.boolean(),
  notificationsBefore: fc.nat({ max: 3 }),
  comment: fc.boolean(),
  extraFields: fc.boolean(),
  closeLastEvent: fc.boolean(),
  chunk: fc.integer({ min: 1, max: 97 }),
});

describe('an SSE answer reads the same however it is split and whatever its line ends', () => {
  it(
    'byte splits, CR / LF / CRLF, multi-line data, comments, notifications first',
    async () => {
      const client = new CatalogClient({ mcpUrl: server.origin, maxRetries: 0 });
      await fc.assert(
        fc.asyncProperty(streams, async (shape) => {
          server.handle((request, response) => {
            const id = rpcIdOf(request.body);
            const { eol } = shape;
            let body = shape.comment ? `: keep-alive${eol}${eol}` : '';
            for (let n = 0; n < shape.notificationsBefore; n++) {
              body += event(
                [
                  'event: message',
                  `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"n":${n}}}`,
                ],
                eol,
              );
            }
            const json = JSON.stringify(catalogAnswer(id));
            const lines = [
              ...(shape.extraFields ? ['event: message', 'id: 42', 'retry: 1000'] : []),
              ...dataLines(json, shape.splits, shape.space),
            ];
            body += shape.closeLastEvent ? event(lines, eol) : lines.join(eol);
            response.writeHead(200, {
              'content-type': 'text/event-stream',
              'x-ucp-auth-tier': 'anonymous',
            });
            const bytes = Buffer.from(body);
            for (let at = 0; at < bytes.length; at += shape.chunk) {
              response.write(bytes.subarray(at, at + shape.chunk));
            }
            response.end();
          });
          const { result } = await client.catalog.search({ query: 'shoes' });
          expect(result.products[0]?.variants[0]?.url).toBe(LINK);
        }),
        { numRuns: RUNS },
      );
    },
    20_000 + RUNS * 200,
  );

  it(
    'an answer in any chunking is taken while the stream stays open',
    async () => {
      const client = new CatalogClient({ mcpUrl: server.origin, maxRetries: 0, timeoutMs: 15_000 });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('\n', '\r\n', '\r'),
          fc.integer({ min: 1, max: 4096 }),
          async (eol, chunk) => {
            server.handle((request, response) => {
              const json = JSON.stringify(catalogAnswer(rpcIdOf(request.body)));
              const bytes = Buffer.from(`event: message${eol}data: ${json}${eol}${eol}`);
              response.writeHead(200, { 'content-type': 'text/event-stream' });
              for (let at = 0; at < bytes.length; at += chunk) {
                response.write(bytes.subarray(at, at + chunk));
              }
              // No end(): the server keeps the stream open after the answer.
            });
            const { result } = await client.catalog.search({ query: 'shoes' });
            expect(result.products[0]?.variants[0]?.url).toBe(LINK);
          },
        ),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    },
    20_000 + RUNS * 200,
  );

  it('multi-byte characters split across chunks arrive whole', async () => {
    const client = new CatalogClient({ mcpUrl: server.origin, maxRetries: 0 });
    server.handle((request, response) => {
      const answer = catalogAnswer(rpcIdOf(request.body));
      answer.result.structuredContent.products[0]!.title = 'Café ☕ 👟 Größe';
      const bytes = Buffer.from(`data: ${JSON.stringify(answer)}\n\n`);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let at = 0; at < bytes.length; at += 1) response.write(bytes.subarray(at, at + 1));
      response.end();
    });
    const { result } = await client.catalog.search({ query: 'shoes' });
    expect(result.products[0]?.title).toBe('Café ☕ 👟 Größe');
  });

  // Bytes are decoded when a chunk ends a line, and otherwise searched for line ends past
  // min(1 MiB, maxSseLineBytes) of them: that path alone finds the answer here.
  it('chunks that never end a line: the answer is found under the cap, the stream left open', async () => {
    const client = new CatalogClient({
      mcpUrl: server.origin,
      maxRetries: 0,
      maxSseLineBytes: 64 * 1024,
    });
    server.handle((request, response) => {
      const notification = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"pad":"${'p'.repeat(90)}"}}\n\n`;
      const answer = `data: ${JSON.stringify(catalogAnswer(rpcIdOf(request.body)))}\n\n`;
      // 300 kB of notifications before the answer and 100 kB after it, then a line left open.
      const events = `${notification.repeat(1500)}${answer}${notification.repeat(500)}`;
      const bytes = Buffer.from(`${events}: still op`);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let at = 0; at < bytes.length; at += 777) response.write(bytes.subarray(at, at + 777));
    });
    const { result } = await client.catalog.search({ query: 'shoes' });
    expect(result.products.length).toBeGreaterThan(0);
  });

  it('a BOM opening the stream is dropped; a later one is content', async () => {
    const client = new CatalogClient({ mcpUrl: server.origin, maxRetries: 0 });
    let later = false;
    server.handle((request, response) => {
      const event = `\ufeffdata: ${JSON.stringify(catalogAnswer(rpcIdOf(request.body)))}\n\n`;
      const bytes = Buffer.from(later ? `: ping\n${event}` : event);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // The BOM split across chunks, and (later) after a first decoded line.
      const cut = later ? 9 : 2;
      response.write(bytes.subarray(0, cut));
      response.end(bytes.subarray(cut));
    });
    const { result } = await client.catalog.search({ query: 'shoes' });
    expect(result.products.length).toBeGreaterThan(0);
    later = true;
    // After the BOM, the field is `\ufeffdata`, not `data`: no answer arrives.
    await expect(client.catalog.search({ query: 'shoes' })).rejects.toThrow(/ended without/);
  });

  it('a stream cut inside the answer is a ProtocolError', async () => {
    const client = new CatalogClient({ mcpUrl: server.origin, maxRetries: 0 });
    server.handle((request, response) => {
      const json = JSON.stringify(catalogAnswer(rpcIdOf(request.body)));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${json.slice(0, json.length / 2)}`);
    });
    await expect(client.catalog.search({ query: 'shoes' })).rejects.toBeInstanceOf(ProtocolError);
  });
});
