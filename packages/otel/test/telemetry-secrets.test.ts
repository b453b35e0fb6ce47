import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogClient, type CatalogStore, MemoryCatalogStore } from '@catalogkit/core';
import type { PaymentChallenge } from '@catalogkit/core/payment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogTelemetry } from '../src/index.js';
import { inMemoryOtel } from './support/otel.js';
import { FORMS } from './support/secret-forms.js';

/*
 * Issue 38: no secret in telemetry. A misbehaving loopback server echoes the API key and a
 * bearer token, in every form of the secrets suite, in error bodies, in the auth tier header
 * and in a 429's body; a payment hook returns a credential, a store and a minter fail with
 * secrets in their messages. No span (name, attribute, event, status) and no metric point
 * holds any form of any of them.
 */

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const TOKEN = `tok_${randomBytes(24).toString('base64url')}`;
const CREDENTIAL = `Payment ${randomBytes(45).toString('base64')}`;
const SECRETS = [KEY, TOKEN, CREDENTIAL, CREDENTIAL.slice('Payment '.length)];

const echoes = (secrets: string[]) =>
  secrets.flatMap((secret) => Object.values(FORMS).map((form) => form(secret)));

let server: Server;
let baseUrl: string;
const seen = new Map<string, number>();

function answer(request: IncomingMessage, response: ServerResponse) {
  const secrets = [request.headers['x-api-key'], request.headers.authorization?.slice(7)].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const echo = echoes(secrets).join(' ');
  const route = `${request.method} ${request.url?.split('?')[0]}`;
  const count = (seen.get(route) ?? 0) + 1;
  seen.set(route, count);
  const headers = { 'content-type': 'application/json', 'x-ucp-auth-tier': secrets[0] ?? '' };
  if (route.startsWith('PATCH') && count === 1) {
    response.writeHead(429, { ...headers, 'retry-after': '0' });
  } else {
    // A change answered 500: its outcome is unknown, and the detail echoes every secret.
    response.writeHead(route.startsWith('PATCH') ? 500 : 400, headers);
  }
  response.end(JSON.stringify({ detail: `bad request ${echo}`, echo }));
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('telemetry carries no secret', () => {
  it('in any span or metric, whatever the service, the store, the payer or the minter echo', async () => {
    const otel = inMemoryOtel();
    const telemetry = catalogTelemetry(otel);
    const failing: CatalogStore = Object.assign(Object.create(new MemoryCatalogStore()), {
      get: () => Promise.reject(new Error(`store down for ${KEY} ${TOKEN}`)),
    });
    const client = new CatalogClient({
      apiKey: KEY,
      baseUrl,
      mcpUrl: baseUrl,
      maxRetries: 2,
      instrumentation: telemetry.instrumentation,
      store: telemetry.store(new MemoryCatalogStore()),
    });
    const update = await failure(client.collections.update('col_1', { name: `renamed ${KEY}` }));
    expect(update).toMatchObject({ name: 'ServerError', outcomeUnknown: true });
    await failure(client.websites.search({ query: `q ${KEY}` }));
    await failure(client.catalog.search({ query: `shoes ${TOKEN}` }));
    await failure(
      client.request({
        operation: `custom`,
        method: 'POST',
        path: `/v1/conversations/${TOKEN}/tokens`,
        query: `token=${TOKEN}`,
        retry: 'once',
        auth: { type: 'bearer', token: TOKEN },
      }),
    );
    await failure(telemetry.store(failing).get(`key-${TOKEN}`));
    await telemetry.store(new MemoryCatalogStore()).set(`key-${TOKEN}`, TOKEN);

    const challenge = (currency: string, method: string): PaymentChallenge => ({
      id: KEY,
      realm: KEY,
      method,
      intent: 'charge',
      request: { amount: '25', currency, recipient: KEY },
      amount: '25',
      currency,
      description: KEY,
      expiresAt: undefined,
      params: { opaque: TOKEN },
    });
    const context = {
      operation: 'collections.update',
      method: 'PATCH' as const,
      url: `${baseUrl}/v1/collections/c?k=${KEY}`,
      mutates: true,
      signal: new AbortController().signal,
    };
    const payment = telemetry.payment({ pay: async () => CREDENTIAL });
    expect(await payment.pay([challenge('usd', 'tempo')], context)).toBe(CREDENTIAL);
    await payment.pay([challenge(KEY, KEY.slice(0, 12))], context);
    await failure(
      Promise.resolve(
        telemetry
          .payment({ pay: () => Promise.reject(new Error(`declined ${CREDENTIAL}`)) })
          .pay([challenge('usd', 'tempo')], context),
      ),
    );
    const mint = telemetry.mint(async () => {
      throw new Error(`mint failed for ${TOKEN}`);
    });
    await failure(mint({ signal: new AbortController().signal } as never));

    const spans = otel.finished().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
      links: span.links,
    }));
    const metrics = [...(await otel.metrics())];
    const text = JSON.stringify({ spans, metrics });
    // The test sees what it looks for: the calls, payments, store errors and a mint are there.
    expect(spans.map((span) => span.name)).toEqual(
      expect.arrayContaining([
        'collections.update',
        'websites.search',
        'catalog.search',
        'custom',
        'catalogkit.payment',
        'catalogkit.store get',
        'catalogkit.token.mint',
      ]),
    );
    expect(text).toContain('"catalogkit.payment.outcome":"paid"');
    expect(text).toContain('catalogkit.client.outcome_unknown');
    expect(text).toContain('catalogkit.store.errors');
    for (const echo of echoes(SECRETS)) {
      expect(text.includes(echo), echo).toBe(false);
      expect(text.toLowerCase().includes(echo.toLowerCase()), echo).toBe(false);
    }
    await otel.shutdown();
  });
});
