import { readdirSync, readFileSync } from 'node:fs';
import { ConfigurationError } from '@catalogkit/core';
import { Redis as UpstashRedis } from '@upstash/redis';
import { Redis as UpstashCloudflareRedis } from '@upstash/redis/cloudflare';
import type { Redis as UpstashFastlyRedis } from '@upstash/redis/fastly';
import { Cluster, Redis } from 'ioredis';
import { Cluster as Cluster5, Redis as Redis5 } from 'ioredis-v5';
import { createClient, createCluster, RESP_TYPES } from 'redis';
import { createClient as createClient5 } from 'redis-v5';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createRedisStore,
  type IoredisClient,
  type NodeRedisClient,
  type UpstashRedisClient,
} from '../src/index.js';

/*
 * The store describes each client by the members it uses instead of importing the client
 * packages' types (they are optional peers). These checks compile (`pnpm typecheck`) the
 * real clients of every supported major against those descriptions, and run the detection
 * that tells them apart, without connecting anything.
 */

const lazy = { lazyConnect: true };
const upstashOptions = { url: 'http://127.0.0.1:9', token: 'not-used', enableTelemetry: false };

describe('every supported client is accepted, typed by its own package, and recognised', () => {
  it('ioredis 6 and 5: Redis and Cluster', () => {
    const clients = [
      new Redis(lazy),
      new Cluster([], lazy),
      new Redis5(lazy),
      new Cluster5([], lazy),
    ] as const;
    for (const client of clients) {
      expect(createRedisStore(client).name).toBe('redis (ioredis)');
      client.disconnect();
    }
    expectTypeOf<Redis5>().toExtend<IoredisClient>();
    expectTypeOf<Cluster5>().toExtend<IoredisClient>();
  });

  it('node-redis 6 and 5: RESP 2 and 3, with scripts and a type mapping', () => {
    const withScript = createClient({
      scripts: {},
      RESP: 2,
    });
    const clients = [
      createClient(),
      withScript,
      createClient({ RESP: 3 }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }),
      createClient5(),
      createClient5({ RESP: 3 }),
    ] as const;
    for (const client of clients) {
      expect(createRedisStore(client).name).toBe('redis (node-redis)');
    }
  });

  it('@upstash/redis: the Node.js, Cloudflare and Fastly entries', () => {
    for (const client of [
      new UpstashRedis(upstashOptions),
      new UpstashRedis({ ...upstashOptions, automaticDeserialization: false }),
      new UpstashCloudflareRedis(upstashOptions),
    ]) {
      expect(createRedisStore(client).name).toBe('upstash redis');
    }
    expectTypeOf<UpstashFastlyRedis>().toExtend<UpstashRedisClient>();
  });

  it('refuses anything else, at compile time and at run time, naming the option', () => {
    const cluster = createCluster({ rootNodes: [] });
    expectTypeOf(cluster).not.toExtend<NodeRedisClient>();
    // @ts-expect-error: not a client
    expect(() => createRedisStore({})).toThrow(ConfigurationError);
    // @ts-expect-error: a URL is not a client
    expect(() => createRedisStore('redis://127.0.0.1:6379')).toThrow(/option client/);
  });
});

describe('options and arguments are checked before anything is sent', () => {
  const client = () => new Redis(lazy);

  it('names the option that is out of range', () => {
    expect(() => createRedisStore(client(), { timeoutMs: 0 })).toThrow(/option timeoutMs/);
    expect(() => createRedisStore(client(), { timeoutMs: 3e9 })).toThrow(/option timeoutMs/);
    expect(() => createRedisStore(client(), { lockPollMs: Number.NaN })).toThrow(
      /option lockPollMs/,
    );
    // @ts-expect-error: a prefix is a string
    expect(() => createRedisStore(client(), { prefix: 5 })).toThrow(/option prefix/);
  });

  it('refuses a TTL, lease or wait that is not a number of milliseconds, and a value that is not a string', async () => {
    const store = createRedisStore(client());
    await expect(store.set('k', 'v', Number.NaN)).rejects.toThrow(/ttlMs/);
    await expect(store.setIfAbsent('k', 'v', Number.POSITIVE_INFINITY)).rejects.toThrow(/ttlMs/);
    // @ts-expect-error: values are strings
    await expect(store.set('k', 42)).rejects.toThrow(/value must be a string, got number/);
    await expect(store.lock('k', { leaseMs: Number.NaN, waitMs: 0 })).rejects.toThrow(/leaseMs/);
    await expect(store.lock('k', { leaseMs: 1_000, waitMs: Number.NaN })).rejects.toThrow(/waitMs/);
  });

  it('refuses a claim with a TTL of 0 or less: it would keep nothing, so every racer would win', async () => {
    const store = createRedisStore(client());
    for (const ttlMs of [0, -1, -0, Number.NEGATIVE_INFINITY]) {
      const error = await store.setIfAbsent('k', 'v', ttlMs).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/setIfAbsent needs ttlMs above 0/);
    }
  });

  it('refuses keys, values and a prefix holding a lone surrogate (Redis would store U+FFFD), naming the field', async () => {
    const store = createRedisStore(client());
    const lone = ['\ud800', 'a\udfff', '\udc00\ud800', 'x\ud83d'];
    for (const text of lone) {
      const keyed: Array<() => Promise<unknown>> = [
        () => store.get(text),
        () => store.set(text, 'v'),
        () => store.setIfAbsent(text, 'v', 1_000),
        () => store.delete(text),
        () => store.lock(text, { leaseMs: 1_000, waitMs: 0 }),
      ];
      for (const attempt of keyed) {
        await expect(attempt()).rejects.toThrow(/^Redis store: key holds a lone UTF-16 surrogate/);
      }
      await expect(store.set('k', text)).rejects.toThrow(/^Redis store: value holds a lone/);
      await expect(store.setIfAbsent('k', text, 1_000)).rejects.toThrow(
        /^Redis store: value holds a lone/,
      );
      expect(() => createRedisStore(client(), { prefix: text })).toThrow(
        /^Redis store: option prefix holds a lone/,
      );
    }
    // A pair is well-formed: an emoji is one UTF-8 character to Redis.
    expect(() => createRedisStore(client(), { prefix: '😀:' })).not.toThrow();
  });
});

describe('the package loads no client and nothing Node-only at run time (edge bundles)', () => {
  it('src imports only @catalogkit/core and its own files', () => {
    const folder = new URL('../src/', import.meta.url);
    const specifiers: string[] = [];
    for (const file of readdirSync(folder)) {
      const text = readFileSync(new URL(file, folder), 'utf8');
      for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*from\s+'([^']+)'/gm)) {
        specifiers.push(match[1] ?? '');
      }
      expect(text).not.toMatch(/\bimport\(|\brequire\(/);
    }
    expect(specifiers.length).toBeGreaterThan(0);
    for (const specifier of specifiers) expect(specifier).toMatch(/^(@catalogkit\/core|\.\/)/);
  });
});
