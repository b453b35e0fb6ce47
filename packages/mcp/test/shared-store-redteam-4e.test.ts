import { MemoryCatalogStore } from '@catalogkit/core';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';

/*
 * Red team 4e F1, the MCP server's side: until wave 4e its `store` option held the guard and
 * the pause shared across instances. A deployment still passing it beside `clientOptions`
 * (options built in a variable or in JavaScript) had it silently ignored: every instance
 * kept its guard in a private memory store. It is refused now, naming where it goes.
 */

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator?.close();
});

describe('red team 4e: the MCP server’s retired store option', () => {
  it('is refused when the handler is made, naming clientOptions.store', () => {
    const options = {
      clientOptions: { apiKey: emulator.keys.valid, baseUrl: emulator.baseUrl },
      store: new MemoryCatalogStore(),
    };
    expect(() => createCatalogMcpHandler(options)).toThrow(
      /store: give it to the client \(clientOptions\.store/,
    );
  });
});
