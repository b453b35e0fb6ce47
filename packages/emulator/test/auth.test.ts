import { describe, expect, it } from 'vitest';
import { get, send, start } from './helpers.js';

const SEARCH = '/v1/websites/search?query=fell';

/** RFC 9110 auth-params of every challenge (quoted strings may hold commas). */
function parseChallenges(header: string): { scheme: string; params: Record<string, string> }[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  const token = /\s*,?\s*([A-Za-z][\w-]*)(?:\s+(?=[\w-]+=))?/y;
  const param = /\s*,?\s*([\w-]+)="((?:[^"\\]|\\.)*)"/y;
  let index = 0;
  while (index < header.length) {
    token.lastIndex = index;
    const scheme = token.exec(header);
    if (!scheme) break;
    index = token.lastIndex;
    const params: Record<string, string> = {};
    for (;;) {
      param.lastIndex = index;
      const match = param.exec(header);
      if (!match) break;
      params[match[1] as string] = (match[2] as string).replace(/\\(.)/g, '$1');
      index = param.lastIndex;
    }
    challenges.push({ scheme: scheme[1] as string, params });
  }
  return challenges;
}

describe('REST keys', () => {
  it('answers 401 saying the key is missing', async () => {
    const emulator = await start();
    const response = await get(emulator, SEARCH, null);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/missing/i);
  });

  it('answers 401 saying the key is invalid, without echoing it', async () => {
    const emulator = await start();
    const response = await get(emulator, SEARCH, emulator.keys.invalid);
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(JSON.parse(text).detail).toMatch(/invalid/i);
    expect(text).not.toContain(emulator.keys.invalid);
  });

  it('answers 402 asking for a payment method when free credits are used up', async () => {
    const emulator = await start();
    const response = await get(emulator, SEARCH, emulator.keys.creditsExhausted);
    expect(response.status).toBe(402);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(((await response.json()) as { detail: string }).detail).toMatch(/payment method/i);
  });

  it('answers 402 with WWW-Authenticate Payment challenges for the machine-payment key', async () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    const emulator = await start({ now: () => now });
    const response = await send(
      emulator,
      'PATCH',
      '/v1/collections/col_summer',
      { name: 'x' },
      { 'x-api-key': emulator.keys.paymentRequired },
    );
    expect(response.status).toBe(402);
    expect(typeof ((await response.json()) as { detail: string }).detail).toBe('string');
    const challenges = parseChallenges(response.headers.get('www-authenticate') ?? '');
    expect(challenges.map((c) => c.scheme)).toEqual(['Payment', 'Payment']);
    for (const { params } of challenges) {
      expect(params).toMatchObject({
        realm: 'catalogkit emulator, payments',
        intent: 'charge',
        expires: '2026-03-01T12:05:00.000Z',
      });
      // HMAC-SHA256 of the other parameters, base64url (43 characters).
      expect(params.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.request).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    const requests = challenges.map(({ params }) =>
      JSON.parse(Buffer.from(params.request ?? '', 'base64url').toString('utf8')),
    );
    expect(challenges.map(({ params }) => params.method)).toEqual(['tempo', 'test']);
    expect(requests[0]).toMatchObject({ amount: '250000', decimals: 6 });
    expect(requests[1]).toEqual({ amount: '25', currency: 'usd' });
    expect(emulator.state.collections.get('col_summer')?.name).toBe('Summer');
  });

  it('applies the same key rules to every REST operation', async () => {
    const emulator = await start();
    const noKey = await send(emulator, 'PATCH', '/v1/collections/col_summer', { name: 'x' }, {});
    const badKey = await send(
      emulator,
      'POST',
      '/v1/conversations',
      {},
      { 'x-api-key': emulator.keys.invalid },
    );
    expect([noKey.status, badKey.status]).toEqual([401, 401]);
    expect(emulator.state.collections.get('col_summer')?.name).toBe('Summer');
    expect(emulator.state.conversations.size).toBe(0);
  });

  it('uses keys from configuration', async () => {
    const emulator = await start({ keys: { valid: 'my-own-key' } });
    expect(emulator.keys.valid).toBe('my-own-key');
    expect((await get(emulator, SEARCH, 'my-own-key')).status).toBe(200);
    expect((await get(emulator, SEARCH, 'ck_test_valid_0000000000000000')).status).toBe(401);
  });
});
