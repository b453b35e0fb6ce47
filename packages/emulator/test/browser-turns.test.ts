import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/index.js';
import { manualClock, send, start } from './helpers.js';

const TURNS_ROUTE = 'POST /v1/conversations/:conversation_id/turns';
const ORIGIN = 'http://127.0.0.1:5999';

async function conversationWithToken(emulator: RunningEmulator, ttlSeconds: number) {
  const created = await send(emulator, 'POST', '/v1/conversations', {});
  const { conversation_id } = (await created.json()) as { conversation_id: string };
  const minted = await send(emulator, 'POST', `/v1/conversations/${conversation_id}/tokens`, {
    ttl_seconds: ttlSeconds,
  });
  expect(minted.status).toBe(201);
  const { token, expires_at } = (await minted.json()) as { token: string; expires_at: string };
  return { conversationId: conversation_id, token, expiresAt: expires_at };
}

function browserTurn(emulator: RunningEmulator, conversationId: string, token: string) {
  return fetch(`${emulator.baseUrl}/v1/conversations/${conversationId}/turns`, {
    method: 'POST',
    headers: {
      origin: ORIGIN,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ message: 'trail running shoes' }),
  });
}

describe('maxTokenTtlSeconds', () => {
  it('grants at most that life, whatever was asked, and the token stops working then', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const emulator = await start({ now: clock.now, maxTokenTtlSeconds: 5 });
    const { conversationId, token, expiresAt } = await conversationWithToken(emulator, 600);
    expect(expiresAt).toBe('2026-03-01T10:00:05.000Z');
    clock.advance(4_900);
    expect((await browserTurn(emulator, conversationId, token)).status).toBe(200);
    clock.advance(100);
    expect((await browserTurn(emulator, conversationId, token)).status).toBe(401);
  });

  it('leaves the requested life alone by default', async () => {
    const emulator = await start({ now: () => new Date('2026-03-01T10:00:00.000Z') });
    const { expiresAt } = await conversationWithToken(emulator, 600);
    expect(expiresAt).toBe('2026-03-01T10:10:00.000Z');
  });

  it('refuses a life that is not positive', async () => {
    await expect(start({ maxTokenTtlSeconds: 0 })).rejects.toThrow(/maxTokenTtlSeconds/);
  });
});

describe('turns from a browser on another origin (CORS)', () => {
  it('answers the preflight without counting it as a turn, and lets the browser read answers', async () => {
    const emulator = await start();
    const { conversationId, token } = await conversationWithToken(emulator, 600);
    const preflight = await fetch(`${emulator.baseUrl}/v1/conversations/${conversationId}/turns`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(emulator.stats.count(TURNS_ROUTE)).toBe(0);

    const ok = await browserTurn(emulator, conversationId, token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');

    // A refused token must be readable too, or the page cannot tell 401 from a network error.
    emulator.faults.set({ routes: [TURNS_ROUTE], status: 401, times: 1 });
    const refused = await browserTurn(emulator, conversationId, token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('keeps CORS off the routes that take the API key', async () => {
    const emulator = await start();
    const response = await send(
      emulator,
      'POST',
      '/v1/conversations',
      {},
      {
        'x-api-key': emulator.keys.valid,
        origin: ORIGIN,
      },
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
