import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { get, manualClock, send, start } from './helpers.js';
import { rpc, searchCatalog } from './mcp-helpers.js';
import { challengeOf, credentialFor, decodeJson, paymentChallenges } from './payment-helpers.js';

const SEARCH = '/v1/websites/search?query=fell';

function paidGet(baseUrl: string, key: string, authorization: string): Promise<Response> {
  return fetch(`${baseUrl}${SEARCH}`, { headers: { 'x-api-key': key, authorization } });
}

describe('machine payments (paymentRequired key)', () => {
  it('takes a credential for the test challenge once and answers with a receipt', async () => {
    const emulator = await start({ now: () => new Date('2026-03-01T12:00:00.000Z') });
    const key = emulator.keys.paymentRequired;
    const challenged = await get(emulator, SEARCH, key);
    expect(challenged.status).toBe(402);
    const credential = credentialFor(challengeOf(challenged));

    const paid = await paidGet(emulator.baseUrl, key, credential);
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { websites: unknown[] }).websites.length).toBeGreaterThan(0);
    const receipt = decodeJson(paid.headers.get('payment-receipt'));
    expect(receipt).toEqual({
      method: 'test',
      reference: 'pay_000001',
      status: 'success',
      timestamp: '2026-03-01T12:00:00.000Z',
      challengeId: challengeOf(challenged).id,
    });
    expect(emulator.payments.accepted).toEqual([
      expect.objectContaining({
        amount: '25',
        currency: 'usd',
        route: 'GET /v1/websites/search',
      }),
    ]);

    const replay = await paidGet(emulator.baseUrl, key, credential);
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as { detail: string }).detail).toMatch(/already paid/);
    expect(paymentChallenges(replay.headers.get('www-authenticate'))).toHaveLength(2);
    expect(emulator.payments.accepted).toHaveLength(1);
  });

  it('refuses a credential whose challenge was altered, another method, or an expired one', async () => {
    const clock = manualClock('2026-03-01T12:00:00.000Z');
    const emulator = await start({ now: clock.now });
    const key = emulator.keys.paymentRequired;
    const challenged = await get(emulator, SEARCH, key);
    const test = challengeOf(challenged);
    const cheaper = Buffer.from(JSON.stringify({ amount: '1', currency: 'usd' })).toString(
      'base64url',
    );
    const detailOf = async (authorization: string) => {
      const response = await paidGet(emulator.baseUrl, key, authorization);
      expect(response.status).toBe(402);
      return ((await response.json()) as { detail: string }).detail;
    };
    expect(await detailOf(credentialFor(test, undefined, { request: cheaper }))).toMatch(
      /did not issue/,
    );
    expect(await detailOf(credentialFor(challengeOf(challenged, 'tempo')))).toMatch(
      /method tempo cannot be settled/,
    );
    expect(await detailOf('Payment not-a-credential!')).toMatch(/not a Payment credential/);
    clock.advance(301_000);
    expect(await detailOf(credentialFor(test))).toMatch(/expired at 2026-03-01T12:05:00.000Z/);
    expect(emulator.payments.accepted).toEqual([]);
  });

  it('binds each id to its parameters with HMAC-SHA256 under the secret (as mppx does)', async () => {
    const emulator = await start({ payment: { secretKey: 'emulator-test-secret' } });
    const response = await get(emulator, SEARCH, emulator.keys.paymentRequired);
    for (const c of paymentChallenges(response.headers.get('www-authenticate'))) {
      const input = [c.realm, c.method, c.intent, c.request, c.expires, '', c.opaque].join('|');
      const expected = createHmac('sha256', 'emulator-test-secret')
        .update(input)
        .digest('base64url');
      expect(c.id).toBe(expected);
    }
  });

  it('issues a new challenge per 402, even at the same instant: each pays once', async () => {
    // A fixed clock: the same expiry for both, so only the opaque nonce tells them apart.
    const emulator = await start({ now: () => new Date('2026-03-01T12:00:00.000Z') });
    const key = emulator.keys.paymentRequired;
    const [first, second] = await Promise.all([
      get(emulator, SEARCH, key),
      get(emulator, SEARCH, key),
    ]);
    const [a, b] = [challengeOf(first as Response), challengeOf(second as Response)];
    expect(a.expires).toBe(b.expires);
    expect(a.id).not.toBe(b.id);
    expect(decodeJson(a.opaque)).toEqual({ nonce: expect.stringMatching(/^[\w-]{22}$/) });
    for (const challenge of [a, b]) {
      expect((await paidGet(emulator.baseUrl, key, credentialFor(challenge))).status).toBe(200);
    }
    expect(emulator.payments.accepted).toHaveLength(2);
  });

  it('applies a paid collection update once, as the valid key user', async () => {
    const emulator = await start();
    const key = emulator.keys.paymentRequired;
    const body = {
      add_clauses: [
        { brand_ids: [], website_ids: [], category_ids: [], product_ids: ['prod_0001'] },
      ],
    };
    const before = emulator.state.collections.get('col_summer')?.clauses.length ?? 0;
    const challenged = await send(emulator, 'PATCH', '/v1/collections/col_summer', body, {
      'x-api-key': key,
    });
    expect(challenged.status).toBe(402);
    expect(emulator.state.collections.get('col_summer')?.clauses.length).toBe(before);
    const paid = await send(emulator, 'PATCH', '/v1/collections/col_summer', body, {
      'x-api-key': key,
      authorization: credentialFor(challengeOf(challenged)),
    });
    expect(paid.status).toBe(200);
    expect(paid.headers.get('payment-receipt')).toBeTruthy();
    expect(emulator.state.collections.get('col_summer')?.clauses.length).toBe(before + 1);
  });

  it('charges MCP tool calls too; a paid call gets the token tier and a receipt', async () => {
    const emulator = await start({ mcpResponse: 'json' });
    const key = emulator.keys.paymentRequired;
    const response = await fetch(`${emulator.mcpUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': key,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_catalog', arguments: { meta: null, catalog: { query: 'shoes' } } },
      }),
    });
    expect(response.status).toBe(402);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/Payment required/);
    const paid = await searchCatalog(
      emulator.mcpUrl,
      { query: 'shoes' },
      { 'x-api-key': key, authorization: credentialFor(challengeOf(response)) },
    );
    expect(paid.status).toBe(200);
    expect(paid.headers.get('x-ucp-auth-tier')).toBe('token');
    expect(decodeJson(paid.headers.get('payment-receipt'))).toMatchObject({ status: 'success' });
    expect(emulator.payments.accepted.map((p) => p.route)).toEqual(['POST /mcp tools/call']);
  });

  it('leaves MCP protocol messages free and pays over SSE too', async () => {
    const emulator = await start();
    const key = emulator.keys.paymentRequired;
    const init = await rpc(
      emulator.mcpUrl,
      'initialize',
      {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'test', version: '1' },
      },
      { 'x-api-key': key },
    );
    expect(init.status).toBe(200);
    const challenged = await fetch(`${emulator.mcpUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }),
    });
    expect(challenged.status).toBe(402);
    const paid = await searchCatalog(
      emulator.mcpUrl,
      { query: 'shoes' },
      { 'x-api-key': key, authorization: credentialFor(challengeOf(challenged)) },
    );
    expect(paid.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(paid.headers.get('payment-receipt')).toBeTruthy();
    expect(paid.message.result).toBeDefined();
  });
});
