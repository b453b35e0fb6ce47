import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, ConfigurationError } from '../src/index.js';
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

const dropsSignal: typeof fetch = (input, init) =>
  fetch(input, {
    method: init?.method,
    headers: init?.headers,
    body: init?.body,
    redirect: init?.redirect,
  });

/** Drops the signal and hands the body on through a TransformStream. */
const pipesBody: typeof fetch = async (input, init) => {
  const answer = await dropsSignal(input, init);
  return new Response(answer.body?.pipeThrough(new TransformStream()), answer);
};

/** Drops the signal and tees the body to a log that reads it to its end. */
const teesBody: typeof fetch = async (input, init) => {
  const answer = await dropsSignal(input, init);
  if (!answer.body) return answer;
  const [callers, logged] = answer.body.tee();
  void new Response(logged).text().catch(() => undefined);
  return new Response(callers, answer);
};

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
