import { describe, expect, it } from 'vitest';
import { get, manualClock, start } from './helpers.js';
import { rpc } from './mcp-helpers.js';

const SEARCH = '/v1/websites/search?query=fell';

async function mcpSearch(url: string, headers: Record<string, string> = {}) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'search_catalog', arguments: { meta: null, catalog: { query: 'sandals' } } },
    }),
  });
}

describe('REST rate limits', () => {
  it('answers 429 with Retry-After until the next UTC midnight, then resets', async () => {
    const clock = manualClock('2026-03-01T23:58:30.000Z');
    const emulator = await start({ rateLimits: { rest: 2 }, now: clock.now });
    expect((await get(emulator, SEARCH)).status).toBe(200);
    expect((await get(emulator, SEARCH)).status).toBe(200);
    const limited = await get(emulator, SEARCH);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('90');
    const detail = ((await limited.json()) as { detail: string }).detail;
    expect(detail).toMatch(/2 requests per UTC day/);
    expect(detail).toContain('2026-03-02T00:00:00.000Z');
    clock.set('2026-03-02T00:00:00.000Z');
    expect((await get(emulator, SEARCH)).status).toBe(200);
  });

  it('counts each key separately', async () => {
    const emulator = await start({ rateLimits: { rest: 1 } });
    expect((await get(emulator, SEARCH)).status).toBe(200);
    expect((await get(emulator, SEARCH)).status).toBe(429);
    expect((await get(emulator, SEARCH, emulator.keys.otherUser)).status).toBe(200);
  });
});

describe('MCP rate limits', () => {
  it('limits the anonymous tier lower than the token tier, with a JSON-RPC -32000 error', async () => {
    const clock = manualClock('2026-03-01T12:00:00.000Z');
    const emulator = await start({ rateLimits: { mcpAnonymous: 1, mcpToken: 3 }, now: clock.now });
    expect((await mcpSearch(emulator.mcpUrl)).status).toBe(200);
    const limited = await mcpSearch(emulator.mcpUrl, { 'x-api-key': 'not-a-key' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('43200');
    expect(limited.headers.get('x-ucp-auth-tier')).toBe('anonymous');
    expect(await limited.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, data: { retry_after: 43200 } },
    });
    const token = { 'x-api-key': emulator.keys.valid };
    for (let i = 0; i < 3; i++) expect((await mcpSearch(emulator.mcpUrl, token)).status).toBe(200);
    const tokenLimited = await mcpSearch(emulator.mcpUrl, token);
    expect(tokenLimited.status).toBe(429);
    expect(tokenLimited.headers.get('x-ucp-auth-tier')).toBe('token');
  });

  it('does not count initialize or tools/list against the quota', async () => {
    const emulator = await start({ rateLimits: { mcpAnonymous: 1 } });
    const initialize = await rpc(emulator.mcpUrl, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'quota-test', version: '1.0.0' },
    });
    expect(initialize.status).toBe(200);
    expect((await rpc(emulator.mcpUrl, 'tools/list', {})).status).toBe(200);
    expect((await mcpSearch(emulator.mcpUrl)).status).toBe(200);
    expect((await mcpSearch(emulator.mcpUrl)).status).toBe(429);
  });

  it('has lower anonymous than token limits by default', async () => {
    const emulator = await start();
    expect(emulator.rateLimits.mcpAnonymous).toBeLessThan(emulator.rateLimits.mcpToken);
  });
});
