import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { get, start } from './helpers.js';

describe('createEmulator (embedding)', () => {
  it('serves REST and MCP through app.fetch, with its handles on app.emulator', async () => {
    const app = createEmulator({ seed: 42 });
    const { keys } = app.emulator;
    const rest = await app.fetch(
      new Request('http://embedded/api/v1/websites/search?query=fell', {
        headers: { 'x-api-key': keys.valid },
      }),
    );
    expect(rest.status).toBe(200);
    const mcp = await app.fetch(
      new Request('http://embedded/ucp/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(mcp.status).toBe(200);
    expect(app.emulator.stats.snapshot()).toEqual({
      'GET /v1/websites/search': 1,
      'POST /mcp': 1,
      'POST /mcp tools/list': 1,
    });
  });

  it('keeps instances apart: state, stats and faults are per instance', async () => {
    const one = await start();
    const two = await start();
    one.faults.set({ status: 500 });
    expect((await get(one, '/v1/websites/search?query=fell')).status).toBe(500);
    expect((await get(two, '/v1/websites/search?query=fell')).status).toBe(200);
    expect(one.stats.count('GET /v1/websites/search')).toBe(1);
    one.stats.reset();
    expect(one.stats.count('GET /v1/websites/search')).toBe(0);
    expect(one.state).not.toBe(two.state);
  });

  it('answers unknown routes with a 404 detail body', async () => {
    const emulator = await start();
    const response = await get(emulator, '/v2/nothing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'Not Found' });
  });
});
