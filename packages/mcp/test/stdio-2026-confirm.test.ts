import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binArgs } from './support/bin.js';
import { updateCollection } from './support/inputs.js';

// Red-team finding F2: on 2026-07-28 over stdio a change could never be confirmed, because
// the server read the client's capabilities from an `initialize` this revision never sends.
// It now reads them from each call's own envelope: the real 2.x client, pinned to
// 2026-07-28 and answering the form, is asked once and its accepted change is sent once.

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const PATCH = 'PATCH /v1/collections/:id';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

describe('2026-07-28 over stdio (the real CLI, default --confirm-changes elicit)', () => {
  it('asks through input_required and sends exactly one PATCH once the user accepts', async () => {
    const client = new Client(
      { name: 'catalogkit-test-host', version: '2.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { form: {} } },
      },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: {} };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: await binArgs(),
        cwd: packageDir,
        env: {
          PATH: process.env.PATH ?? '',
          CATALOG_API_KEY: emulator.keys.valid,
          CATALOG_BASE_URL: emulator.baseUrl,
          CATALOG_MCP_URL: emulator.mcpUrl,
        },
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const before = emulator.stats.count(PATCH);
      const result = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer', { name: 'Beach' }),
      });
      expect(result.isError).toBeFalsy();
      expect(asked).toEqual([expect.stringContaining('rename it to “Beach”')]);
      expect(emulator.stats.count(PATCH)).toBe(before + 1);
    } finally {
      await client.close();
    }
  });
});
