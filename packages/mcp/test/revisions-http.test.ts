import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, type MountedHandler, mountInHono } from './support/http-host.js';
import { searchCatalog, searchWebsites, textOf, updateCollection } from './support/inputs.js';

let emulator: RunningEmulator;
let mounted: MountedHandler;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  mounted = await mountInHono(
    createCatalogMcpHandler({
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
    }),
  );
});

afterAll(async () => {
  await mounted?.close();
  await emulator?.close();
});

const TOOL_NAMES = ['search_catalog', 'search_websites', 'update_collection'];
const PATCH = 'PATCH /v1/collections/:id';

type Answer = 'accept' | 'decline' | undefined;

/** A 2.x client on 2026-07-28 (pinned: no fallback), answering confirmations with `answer`. */
async function modernClient(answer: Answer): Promise<{ client: ModernClient; asked: string[] }> {
  const client = new ModernClient(
    { name: 'catalogkit-test-host', version: '2.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
    });
  }
  await client.connect(new ModernHttpTransport(mounted.url));
  return { client, asked };
}

describe('one HTTP handler, two protocol revisions', () => {
  it('2026-07-28 (@modelcontextprotocol/client 2.x, pinned): lists the tools and calls all three', async () => {
    const { client, asked } = await modernClient('accept');
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
      const catalog = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog('trail running shoes'),
      });
      expect(catalog.structuredContent).toMatchObject({ tier: 'token' });
      const websites = await client.callTool({
        name: 'search_websites',
        arguments: searchWebsites('running'),
      });
      expect(websites.isError).toBeFalsy();
      // A change is confirmed statelessly: input_required with the question, then the retry
      // with the user's answer (the client fulfils it through its elicitation handler).
      const patches = emulator.stats.count(PATCH);
      const renamed = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer', { name: 'Beach' }),
      });
      expect(renamed.isError).toBeFalsy();
      expect(asked).toEqual([expect.stringContaining('rename it to “Beach”')]);
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Beach');
      expect(emulator.stats.count(PATCH)).toBe(patches + 1);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28: a declined change is not sent; a client without elicitation is refused', async () => {
    const patches = emulator.stats.count(PATCH);
    const declining = await modernClient('decline');
    const unable = await modernClient(undefined);
    try {
      const declined = await declining.client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer', { name: 'Declined' }),
      });
      expect(declined.isError).toBe(true);
      expect(textOf(declined)).toMatch(/^The user declined this change/);
      const refused = await unable.client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer', { name: 'Unconfirmed' }),
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('--confirm-changes annotations-only');
      expect(emulator.stats.count(PATCH)).toBe(patches);
    } finally {
      await declining.client.close();
      await unable.client.close();
    }
  });

  it('2025-11-25 from the same handler: the 2.x client without negotiation, and the 1.32 SDK Client', async () => {
    const legacy2 = new ModernClient({ name: 'catalogkit-test-host', version: '2.0.0' });
    await legacy2.connect(new ModernHttpTransport(mounted.url));
    const { client: legacy1 } = await connectHttpClient(mounted.url);
    try {
      expect(legacy2.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      for (const client of [legacy2, legacy1]) {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
        const catalog = await client.callTool({
          name: 'search_catalog',
          arguments: searchCatalog('rain jacket'),
        });
        expect(catalog.structuredContent).toMatchObject({ tier: 'token' });
        const websites = await client.callTool({
          name: 'search_websites',
          arguments: searchWebsites('outdoor'),
        });
        expect(websites.isError).toBeFalsy();
        // No session to ask over: refused, with how to enable it.
        const refused = await client.callTool({
          name: 'update_collection',
          arguments: updateCollection('col_summer', { name: 'Legacy' }),
        });
        expect(textOf(refused)).toContain('needs their confirmation first');
      }
    } finally {
      await legacy2.close();
      await legacy1.close();
    }
  });
});
