import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from '@upstash/redis';
import { Redis as CloudflareRedis } from '@upstash/redis/cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../src/index.js';
import { type RedisServer, skipRedisTests, startRedisServer } from './support/redis-server.js';
import {
  describeStoreSuite,
  everyTextOf,
  expectNoRunOf,
  expectStoreUnavailable,
} from './support/store-suite.js';
import { upstashTarget } from './support/targets.js';
import { startUpstashStandIn, type UpstashStandIn } from './support/upstash-stand-in.js';

describeStoreSuite(upstashTarget);

describe.skipIf(skipRedisTests)(
  'the Upstash REST stand-in, checked against the real client',
  () => {
    let server: RedisServer;
    let standIn: UpstashStandIn;
    const client = (options: { token?: string; automaticDeserialization?: boolean } = {}) =>
      new Redis({ url: standIn.url, token: standIn.token, ...options });
    /** A raw request, as a client that breaks the protocol would send it. */
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${standIn.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${standIn.token}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    /** Resolves once Redis has `count` clients blocked in a command (BLPOP, XREAD BLOCK). */
    async function untilBlocked(count: number) {
      for (;;) {
        const info = String(await server.command('INFO', 'clients'));
        if (Number(/blocked_clients:(\d+)/.exec(info)?.[1]) >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    beforeAll(async () => {
      server = await startRedisServer();
      standIn = await startUpstashStandIn({
        redisPort: server.port,
        redisPassword: server.password,
        token: 'stand-in-token-5e1f',
      });
    });
    afterAll(async () => {
      await standIn?.close();
      await server?.stop();
    });

    it("every request the real client makes passes the stand-in's strict check: /, /pipeline and /multi-exec", async () => {
      const before = standIn.requests.length;
      const store = createRedisStore(client(), { prefix: 'conform:' });
      await store.set('a', '{"json":true}', 60_000);
      await store.get('a');
      await store.setIfAbsent('b', 'x', 60_000);
      await store.delete('a');
      const release = await store.lock('l', { leaseMs: 1_000, waitMs: 0 });
      await release();
      // The client's own ways of sending: auto-pipelined commands, pipeline(), multi(), and
      // the Cloudflare entry.
      const direct = client();
      await Promise.all([direct.set('conform:d', 'v', { px: 60_000 }), direct.get('conform:d')]);
      await direct.pipeline().set('conform:e', 1).incr('conform:e').get('conform:e').exec();
      await direct.multi().set('conform:f', 'v').del('conform:f').exec();
      await direct.eval('return ARGV[1]', ['conform:g'], ['argument']);
      await new CloudflareRedis({ url: standIn.url, token: standIn.token }).get('conform:d');

      const made = standIn.requests.slice(before);
      expect(made.filter((request) => request.refused !== undefined)).toEqual([]);
      expect(new Set(made.map((request) => request.path))).toEqual(
        new Set(['/', '/pipeline', '/multi-exec']),
      );
      const commands = new Set(made.flatMap((request) => request.commands));
      for (const name of ['EVAL', 'SET', 'DEL', 'GET', 'INCR']) {
        expect(commands).toContain(name);
      }
    });

    it('answers in the documented shapes: { result }, base64 strings on request, { error } with 400', async () => {
      expect(await (await post('/', ['SET', 'shape:k', 'é'])).json()).toEqual({ result: 'OK' });
      expect(await (await post('/', ['GET', 'shape:k'])).json()).toEqual({ result: 'é' });
      const encoded = await post('/', ['GET', 'shape:k'], { 'upstash-encoding': 'base64' });
      expect(await encoded.json()).toEqual({ result: Buffer.from('é').toString('base64') });
      expect(await (await post('/', ['GET', 'shape:none'])).json()).toEqual({ result: null });
      const failed = await post('/', ['INCR', 'shape:k']);
      expect(failed.status).toBe(400);
      expect(await failed.json()).toEqual({ error: expect.stringMatching(/^ERR /) });
      const pipeline = await post('/pipeline', [
        ['SET', 'shape:n', '1'],
        ['INCR', 'shape:n'],
        ['INCR', 'shape:k'],
      ]);
      expect(await pipeline.json()).toEqual([
        { result: 'OK' },
        { result: 2 },
        { error: expect.stringMatching(/^ERR /) },
      ]);
    });

    it('refuses a wrong token, a missing one, and every request of the wrong shape', async () => {
      const refusals: Array<[Promise<Response>, number]> = [
        [post('/', ['GET', 'k'], { authorization: 'Bearer wrong' }), 401],
        [fetch(`${standIn.url}/`, { method: 'POST', body: '["GET","k"]' }), 401],
        [post('/', { command: 'GET' }), 400],
        [post('/', [['GET', 'k']]), 400],
        [post('/', ['GET', { key: 'k' }]), 400],
        [post('/', ['GET', null]), 400],
        [post('/', []), 400],
        [post('/pipeline', []), 400],
        [post('/pipeline', ['GET', 'k']), 400],
        [post('/', 'not json'), 400],
        [post('/', ['GET', 'k'], { 'content-type': 'text/plain' }), 400],
        [post('/', ['GET', 'k'], { 'upstash-encoding': 'hex' }), 400],
        [post('/', ['GET', 'k'], { 'upstash-something-new': '1' }), 400],
        [post('/get/k', ['GET', 'k']), 404],
        [fetch(`${standIn.url}/`, { headers: { authorization: `Bearer ${standIn.token}` } }), 405],
      ];
      const before = standIn.requests.length;
      for (const [response, status] of refusals) expect((await response).status).toBe(status);
      const recorded = standIn.requests.slice(before);
      expect(recorded).toHaveLength(refusals.length);
      for (const request of recorded) expect(request.refused).toEqual(expect.any(String));

      // The real client with a wrong token is refused the same way, and the store says so
      // without the token.
      const store = createRedisStore(client({ token: 'wrong-token-93ab' }));
      const error = await store.get('k').catch((caught: unknown) => caught);
      expectStoreUnavailable(error, 'upstash redis', ['wrong-token-93ab', standIn.token]);
      expect(standIn.requests.at(-1)).toMatchObject({ status: 401, refused: 'wrong bearer token' });
    });

    it('values read back exactly with automaticDeserialization off too', async () => {
      const store = createRedisStore(client({ automaticDeserialization: false }), {
        prefix: 'raw:',
      });
      for (const value of ['{"a":1}', '12', 'null', '']) {
        await store.set('k', value);
        expect((await store.get('k'))?.value).toBe(value);
      }
    });

    it('an answer a command cannot give is a StoreUnavailableError, never a wrong value', async () => {
      const store = createRedisStore(client(), { prefix: 'odd:' });
      try {
        for (const answer of [42, 'OK?', ['x']]) {
          standIn.misbehave(answer);
          for (const attempt of [
            () => store.get('k'),
            () => store.set('k', 'v'),
            () => store.setIfAbsent('k', 'v'),
            () => store.lock('k', { leaseMs: 1_000, waitMs: 0 }),
          ]) {
            const error = await attempt().catch((caught: unknown) => caught);
            expectStoreUnavailable(error, 'upstash redis', [standIn.token]);
            expect((error as Error).message).toMatch(/answered wrongly/);
          }
        }
        // A remaining life no Redis gives: beyond Number.MAX_SAFE_INTEGER (a timer set from it
        // would overflow), or below -2.
        for (const answer of [
          [9007199254740993000, '=v'],
          [-5, '=v'],
          [1.5, '=v'],
        ]) {
          standIn.misbehave(answer);
          await expect(store.get('k')).rejects.toThrow(/GET answered wrongly/);
        }
        standIn.misbehave('not a number');
        await expect(store.delete('k')).rejects.toThrow(/DEL answered wrongly/);
      } finally {
        standIn.misbehave(undefined);
      }
    });

    it('an unreachable endpoint fails every operation within timeoutMs, though the client retries for longer', async () => {
      // The client's default: 5 retries of a failed fetch with backoff, about 4.3 s in all.
      const closed = await startUpstashStandIn({
        redisPort: server.port,
        redisPassword: server.password,
        token: 'gone-token-77',
      });
      await closed.close();
      const store = createRedisStore(new Redis({ url: closed.url, token: 'gone-token-77' }), {
        timeoutMs: 500,
      });
      for (const attempt of [() => store.get('k'), () => store.set('k', 'v')]) {
        const started = performance.now();
        const error = await attempt().catch((caught: unknown) => caught);
        expect(performance.now() - started).toBeLessThan(1_500);
        expectStoreUnavailable(error, 'upstash redis', ['gone-token-77']);
        expect((error as Error).message).toMatch(/no answer within 500 ms/);
      }
    });

    it('each request runs on a Redis connection of its own, as on Upstash: blocking commands of other clients hold up no one', async () => {
      const other = client();
      let released = false;
      // Blocks until the XADD below (BLOCK 0: no time limit), whatever the machine's speed.
      const blocking = other
        .xread('stand-in:stream', '$', { blockMS: 0 })
        .finally(() => (released = true));
      await untilBlocked(1);
      const store = createRedisStore(client(), { prefix: 'own:', timeoutMs: 10_000 });
      expect(await store.get('k')).toBeUndefined();
      // Answered while the other client's XREAD still held its connection.
      expect(released).toBe(false);
      await server.command('XADD', 'stand-in:stream', '*', 'f', 'v');
      await blocking;
      // Four BLPOPs without a time limit are blocked at once: they run side by side, not one
      // by one (one by one, the second would never start, and this would not end).
      const pops = Promise.all(
        [1, 2, 3, 4].map(() => other.exec(['BLPOP', 'stand-in:empty', '0'])),
      );
      await untilBlocked(4);
      await server.command('RPUSH', 'stand-in:empty', 'a', 'b', 'c', 'd');
      expect(await pops).toHaveLength(4);
    });

    it("a request's connection state (SELECT, an open MULTI) does not reach later requests", async () => {
      expect((await post('/', ['SELECT', '1'])).status).toBe(200);
      expect((await post('/', ['MULTI'])).status).toBe(200);
      expect(await (await post('/', ['SET', 'state:k', 'v'])).json()).toEqual({ result: 'OK' });
      expect(await server.command('GET', 'state:k')).toBe('v');
    });

    it('takes booleans as the client sends them, and base64-encodes a status inside an array', async () => {
      const direct = client();
      expect(await direct.set('bool:k', true)).toBe('OK');
      expect(await server.command('GET', 'bool:k')).toBe('true');
      const script = "return { redis.call('SET', KEYS[1], ARGV[1]), redis.call('GET', KEYS[1]) }";
      expect(await direct.eval(script, ['nested:k'], ['OK'])).toEqual(['OK', 'OK']);
      const raw = await post('/', ['EVAL', script, '1', 'nested:k', 'OK'], {
        'upstash-encoding': 'base64',
      });
      expect(await raw.json()).toEqual({ result: ['T0s=', 'T0s='] });
    });
  },
);

/** An HTTP server answering every request with `answer`; counts the answers cut short. */
async function startFakeEndpoint(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
) {
  let cutShort = 0;
  const fake = createServer((request, response) => {
    response.on('close', () => {
      if (!response.writableEnded) cutShort += 1;
    });
    request.resume();
    request.on('end', () => answer(request, response));
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
    cutShort: () => cutShort,
    async close() {
      fake.closeAllConnections();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    },
  };
}

describe('an Upstash endpoint (or a proxy in front of it) that misbehaves', () => {
  const token = 'AXsecretUpstashToken0123456789abcdef';

  it('an answer that never ends is aborted when the store gives up, with client defaults too: memory stays bounded', async () => {
    const chunk = 'a'.repeat(64 * 1024);
    const endless = await startFakeEndpoint((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"result":"');
      const timer = setInterval(() => response.write(chunk), 10);
      response.on('close', () => clearInterval(timer));
    });
    try {
      // Client defaults: no `signal` option, so only the store can stop the request.
      const store = createRedisStore(new Redis({ url: endless.url, token }), { timeoutMs: 300 });
      const started = performance.now();
      const error = await store.get('k').catch((caught: unknown) => caught);
      expect(performance.now() - started).toBeLessThan(1_000);
      expectStoreUnavailable(error, 'upstash redis', [token]);
      // The client stopped reading: the connection was closed, not left streaming.
      const deadline = performance.now() + 2_000;
      while (endless.cutShort() === 0 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(endless.cutShort()).toBe(1);
    } finally {
      await endless.close();
    }
  });

  /** How a proxy might echo the `Authorization` header: the status and the body it sends. */
  type Echo = (authorization: string) => [status: number, body: unknown];
  const echoes: Array<[string, Echo]> = [
    ['URL-encoded', (auth) => [400, { error: `ERR bad header auth=${encodeURIComponent(auth)}` }]],
    ['as is', (auth) => [401, { error: `invalid token ${auth.split(' ')[1]}` }]],
    ['in a header dump', (auth) => [400, { error: `rejected: ${JSON.stringify({ auth })}` }]],
    ['in a body that is not JSON', (auth) => [502, `<html>no gateway for ${auth.slice(7)}</html>`]],
  ];

  it.each(echoes)('an echo of the token %s shows no run of it', async (_form, echo) => {
    const proxy = await startFakeEndpoint((request, response) => {
      const [status, body] = echo(request.headers.authorization ?? '');
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
    try {
      const upstash = new Redis({ url: proxy.url, token, retry: false, enableTelemetry: false });
      const store = createRedisStore(upstash, { timeoutMs: 2_000 });
      const error = await store.get('k').catch((caught: unknown) => caught);
      expectStoreUnavailable(error, 'upstash redis', []);
      expectNoRunOf(everyTextOf(error), [token, encodeURIComponent(`Bearer ${token}`)]);
    } finally {
      await proxy.close();
    }
  });
});
