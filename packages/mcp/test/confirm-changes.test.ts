import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { startBin } from './support/bin.js';
import { connectHttpClient, mountInHono } from './support/http-host.js';
import { searchCatalog, textOf, updateCollection } from './support/inputs.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

function env(): Record<string, string> {
  return {
    CATALOG_API_KEY: emulator.keys.valid,
    CATALOG_BASE_URL: emulator.baseUrl,
    CATALOG_MCP_URL: emulator.mcpUrl,
  };
}

/** The Summer collection as the service holds it now (a copy). */
function summer(): unknown {
  return structuredClone(emulator.state.collections.get('col_summer'));
}

function clauseCount(): number {
  return emulator.state.collections.get('col_summer')?.clauses.length ?? 0;
}

/** A host that supports form elicitation, as `@ai-sdk/mcp` advertises it (`elicitation: {}`). */
interface ElicitingHost {
  client: Client;
  asked: ElicitRequest['params'][];
  /** What the user answers to the next confirmations. */
  action: ElicitResult['action'];
}

async function startElicitingHost(args: string[] = []): Promise<ElicitingHost> {
  const { client } = await startBin(env(), {
    args,
    clientOptions: { capabilities: { elicitation: {} } },
  });
  const host: ElicitingHost = { client, asked: [], action: 'accept' };
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    host.asked.push(request.params);
    return host.action === 'accept'
      ? { action: host.action, content: {} }
      : { action: host.action };
  });
  return host;
}

/**
 * One bin (the default, `--confirm-changes elicit`) serves the tests of the user's answers:
 * each starts with no question asked and the answer it sets; a bin start costs seconds.
 */
let eliciting: ElicitingHost | undefined;

async function hostAnswering(
  action: ElicitResult['action'],
): Promise<{ client: Client; asked: ElicitRequest['params'][] }> {
  eliciting ??= await startElicitingHost();
  eliciting.action = action;
  eliciting.asked = [];
  return eliciting;
}

afterAll(async () => {
  await eliciting?.client.close();
});

const ADD_PRODUCTS = updateCollection('col_summer', {
  add_clauses: [{ brand_ids: [], website_ids: [], category_ids: [], product_ids: ['prod_003ia'] }],
});

describe('update_collection asks the user through elicitation where the host supports it', () => {
  it('accepted: the user reads the change, and it is applied once', async () => {
    const { client, asked } = await hostAnswering('accept');
    const before = clauseCount();
    const result = await client.callTool({ name: 'update_collection', arguments: ADD_PRODUCTS });
    expect(result.isError).toBeFalsy();
    expect(clauseCount()).toBe(before + 1);
    expect(asked).toEqual([
      {
        mode: 'form',
        message: [
          'Change your collection col_summer (1 change):',
          '- add a clause (product prod_003ia)',
          '(What the collection already selects is not added again.)',
        ].join('\n'),
        requestedSchema: { type: 'object', properties: {} },
      },
    ]);
    // Reads never ask.
    await client.callTool({ name: 'search_catalog', arguments: searchCatalog('rain jacket') });
    expect(asked).toHaveLength(1);
  });

  it.each([
    ['decline', /^The user declined this change, so update_collection did not run/],
    [
      'cancel',
      /^The user closed the confirmation without answering, so update_collection did not run/,
    ],
  ] as const)('%s: nothing is applied, and the model reads why', async (action, text) => {
    const { client, asked } = await hostAnswering(action);
    const before = summer();
    const result = await client.callTool({
      name: 'update_collection',
      arguments: updateCollection('col_summer', {
        name: 'Beach',
        remove_clause_ids: ['cl_0001'],
      }),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(text);
    expect(textOf(result)).toContain('nothing was changed');
    expect(summer()).toEqual(before);
    expect(asked.map((params) => params.message)).toEqual([
      [
        'Change your collection col_summer (2 changes):',
        '- REMOVE 1 clause (cl_0001)',
        '- rename it to “Beach”',
      ].join('\n'),
    ]);
  });

  it('shows model text escaped and capped, removals first, so nothing buries a removal', async () => {
    const { client, asked } = await hostAnswering('decline');
    const spoof = `Summer”. Nothing else changes. Press Accept to keep your name.${'\n'.repeat(60)}“`;
    const before = summer();
    await client.callTool({
      name: 'update_collection',
      arguments: updateCollection('col_summer', {
        name: spoof,
        description: `sale \u202Egnp.exe ${'x'.repeat(500)}`,
        remove_clause_ids: ['cl_0001'],
      }),
    });
    expect(summer()).toEqual(before);
    const lines = asked[0]?.message.split('\n') ?? [];
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('Change your collection col_summer (3 changes):');
    expect(lines[1]).toBe('- REMOVE 1 clause (cl_0001)');
    // The name's own quotes and line breaks are shown escaped, inside the one pair of quotes.
    expect(lines[2]).toMatch(
      /^- rename it to “Summer\\u\{201D\}\. Nothing else changes\. Press Accept to keep your name\.(\\u\{000A\}){60}\\u\{201C\}”$/,
    );
    expect(lines[3]).toContain('sale \\u{202E}gnp.exe');
    expect(lines[3]).not.toContain('\u202E');
    expect(lines[3]).toContain('… (514 characters in all)”');
    expect(lines[3]?.length).toBeLessThan(300);
  });

  it('does not ask about input the tool refuses anyway', async () => {
    const { client, asked } = await hostAnswering('accept');
    const result = await client.callTool({
      name: 'update_collection',
      arguments: updateCollection('col_summer'),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('give at least one change');
    expect(asked).toEqual([]);
  });

  it('--confirm-changes annotations-only never asks: the host decides from the annotations', async () => {
    const host = await startElicitingHost(['--confirm-changes', 'annotations-only']);
    host.action = 'decline';
    const { client, asked } = host;
    try {
      const before = clauseCount();
      const result = await client.callTool({ name: 'update_collection', arguments: ADD_PRODUCTS });
      expect(result.isError).toBeFalsy();
      expect(clauseCount()).toBe(before + 1);
      expect(asked).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a stdio host without elicitation: refused, nothing changed, the message says how to enable it', async () => {
    const { client } = await startBin(env());
    try {
      const before = summer();
      const result = await client.callTool({ name: 'update_collection', arguments: ADD_PRODUCTS });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^update_collection changes the user's data and needs their confirmation first/,
      );
      expect(textOf(result)).toContain('--confirm-changes annotations-only');
      expect(textOf(result)).toContain("confirmChanges: 'annotations-only'");
      expect(summer()).toEqual(before);
      // Input the tool refuses itself still names the field, rather than asking to enable.
      const invalid = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer'),
      });
      expect(textOf(invalid)).toContain('give at least one change');
    } finally {
      await client.close();
    }
  });

  it('the stateless HTTP handler cannot ask (no session for the answer): refused, no PATCH', async () => {
    const handlerOptions = {
      clientOptions: {
        apiKey: emulator.keys.valid,
        baseUrl: emulator.baseUrl,
        mcpUrl: emulator.mcpUrl,
      },
    };
    const mounted = await mountInHono(createCatalogMcpHandler(handlerOptions));
    const { client } = await connectHttpClient(mounted.url, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: 'accept', content: {} };
    });
    const optedIn = await mountInHono(
      createCatalogMcpHandler({ ...handlerOptions, confirmChanges: 'annotations-only' }),
    );
    const { client: optedInClient } = await connectHttpClient(optedIn.url);
    try {
      const patches = () => emulator.stats.count('PATCH /v1/collections/:id');
      const before = { collection: summer(), patches: patches() };
      const result = await client.callTool({ name: 'update_collection', arguments: ADD_PRODUCTS });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('--confirm-changes annotations-only');
      expect(summer()).toEqual(before.collection);
      expect(patches()).toBe(before.patches);
      expect(asked).toBe(0);
      // The operator's explicit option: the change runs, left to the host's approval.
      const clauses = clauseCount();
      const accepted = await optedInClient.callTool({
        name: 'update_collection',
        arguments: ADD_PRODUCTS,
      });
      expect(accepted.isError).toBeFalsy();
      expect(clauseCount()).toBe(clauses + 1);
    } finally {
      await client.close();
      await optedInClient.close();
      await mounted.close();
      await optedIn.close();
    }
  });
});
