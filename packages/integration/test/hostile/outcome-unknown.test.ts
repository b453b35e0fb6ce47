import { createServer } from 'node:net';
import {
  AuthenticationError,
  CatalogClient,
  type CatalogError,
  ConnectionError,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '@catalogkit/core';
import {
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from '@catalogkit/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { failureOf, type HostileServer, startHostileServer } from './hostile-server.js';

const KEY = 'ck_hostile_3f9a2c7e5b1d4a60';
const ROUTE = 'PATCH /v1/collections/:collection_id';
const COLLECTION = 'col_summer';
const addition = {
  add_clauses: [{ brand_ids: ['brand_once'], website_ids: [], category_ids: [], product_ids: [] }],
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function emulatorWith(faults: StartEmulatorOptions['faults']) {
  const emulator = await startEmulator({ faults });
  cleanups.push(() => emulator.close());
  const client = new CatalogClient({
    apiKey: emulator.keys.valid,
    baseUrl: emulator.baseUrl,
    maxRetries: 3,
  });
  return { emulator, client };
}

function appliedClauses(emulator: RunningEmulator): number {
  const stored = emulator.state.collections.get(COLLECTION) as {
    clauses: { brand_ids: string[] }[];
  };
  return stored.clauses.filter((clause) => clause.brand_ids.includes('brand_once')).length;
}

describe('outcomeUnknown against the emulator faults (collections.update)', () => {
  it('true when the connection drops after the change was applied', async () => {
    const { emulator, client } = await emulatorWith({ routes: [ROUTE], drop: 'after', times: 1 });
    const error = await failureOf(client.collections.update(COLLECTION, addition));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: true, requestSent: true });
    expect(appliedClauses(emulator)).toBe(1);
  });

  it('true when the answer is truncated after the change was applied', async () => {
    const { emulator, client } = await emulatorWith({ routes: [ROUTE], truncate: true, times: 1 });
    const error = await failureOf(client.collections.update(COLLECTION, addition));
    expect((error as CatalogError).outcomeUnknown).toBe(true);
    expect(appliedClauses(emulator)).toBe(1);
  });

  it('true on a 500, which the client cannot tell from "applied, then failed"', async () => {
    const { client } = await emulatorWith({ routes: [ROUTE], status: 500, times: 1 });
    const error = await failureOf(client.collections.update(COLLECTION, addition));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).outcomeUnknown).toBe(true);
  });

  it('false on a 429 (refused before processing), and the retry then succeeds once', async () => {
    const { emulator, client } = await emulatorWith({
      routes: [ROUTE],
      status: 429,
      retryAfterSeconds: 0,
      times: 1,
    });
    await client.collections.update(COLLECTION, addition);
    expect(appliedClauses(emulator)).toBe(1);
  });

  it('false on a 404 refusal from the emulator', async () => {
    const { client } = await emulatorWith(undefined);
    const missing = await failureOf(client.collections.update('col_nope', addition));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).outcomeUnknown).toBe(false);
  });
});

let server: HostileServer;
async function hostile() {
  server = await startHostileServer();
  cleanups.push(() => server.close());
  return new CatalogClient({ apiKey: KEY, baseUrl: server.origin, maxRetries: 0 });
}

async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('outcomeUnknown against hostile servers', () => {
  it.each([
    [401, AuthenticationError],
    [402, PaymentRequiredError],
    [404, NotFoundError],
    [422, ValidationError],
    [429, RateLimitError],
  ])('false on a %i refusal', async (status, type) => {
    const client = await hostile();
    server.handle((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '3600' });
      response.end('{"detail":[{"loc":["body"],"msg":"no","type":"refused"}]}');
    });
    const update = await failureOf(client.collections.update(COLLECTION, addition));
    expect(update).toBeInstanceOf(type);
    expect((update as CatalogError).outcomeUnknown).toBe(false);
    const create = await failureOf(client.conversations.create({}));
    expect((create as CatalogError).outcomeUnknown).toBe(false);
  });

  it.each([500, 502, 503])('true on a %i', async (status) => {
    const client = await hostile();
    server.handle((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end('{"detail":"boom"}');
    });
    const update = await failureOf(client.collections.update(COLLECTION, addition));
    expect((update as CatalogError).outcomeUnknown).toBe(true);
    const create = await failureOf(client.conversations.create({}));
    expect((create as CatalogError).outcomeUnknown).toBe(true);
  });

  it('true on a 2xx whose body is not JSON (the change was likely applied)', async () => {
    const client = await hostile();
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"collection_id": "col_summer", "clau');
    });
    const update = await failureOf(client.collections.update(COLLECTION, addition));
    expect(update).toBeInstanceOf(ProtocolError);
    expect((update as CatalogError).outcomeUnknown).toBe(true);
  });

  it('true on a timeout after the request was sent', async () => {
    const client = await hostile();
    server.handle(() => undefined); // reads the request, never answers
    const update = await failureOf(
      client.collections.update(COLLECTION, addition, { timeoutMs: 300 }),
    );
    expect(update).toBeInstanceOf(TimeoutError);
    expect((update as CatalogError).outcomeUnknown).toBe(true);
  });

  it('true when the server hangs up after reading the request', async () => {
    const client = await hostile();
    server.handle((_request, response) => response.socket?.destroy());
    const update = await failureOf(client.collections.update(COLLECTION, addition));
    expect(update).toMatchObject({ code: 'connection', outcomeUnknown: true });
  });

  it('false when the connection is refused (nothing was sent)', async () => {
    const port = await refusedPort();
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      maxRetries: 0,
    });
    const update = await failureOf(client.collections.update(COLLECTION, addition));
    expect(update).toMatchObject({ code: 'connection', requestSent: false, outcomeUnknown: false });
    const create = await failureOf(client.conversations.create({}));
    expect((create as CatalogError).outcomeUnknown).toBe(false);
  });

  it('false for a read, whatever happened: nothing changes', async () => {
    const client = await hostile();
    server.handle((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"detail":"boom"}');
    });
    const read = await failureOf(client.websites.search({ query: 'nike' }));
    expect((read as CatalogError).outcomeUnknown).toBe(false);
  });

  it('is an enumerable field, so it shows in JSON and logs', async () => {
    const client = await hostile();
    server.handle((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end('{"detail":"boom"}');
    });
    const update = await failureOf(client.collections.update(COLLECTION, addition));
    expect(JSON.parse(JSON.stringify(update))).toMatchObject({ outcomeUnknown: true });
  });
});
