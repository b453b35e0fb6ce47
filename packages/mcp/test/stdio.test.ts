import { CATALOG_TOOL_NAMES } from '@catalogkit/core/tools';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { missingConfiguration, parseArgs } from '../src/cli-config.js';
import { runBin, startBin } from './support/bin.js';
import { searchCatalog, textOf, updateCollection } from './support/inputs.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

describe('the stdio bin (npx @catalogkit/mcp)', () => {
  it('serves the tools configured by CATALOG_* variables', async () => {
    // The operator accepts unconfirmed changes: this host cannot confirm them (no elicitation).
    const { client, stderr } = await startBin(
      {
        CATALOG_API_KEY: emulator.keys.valid,
        CATALOG_BASE_URL: emulator.baseUrl,
        CATALOG_MCP_URL: emulator.mcpUrl,
      },
      { args: ['--confirm-changes', 'annotations-only'] },
    );
    try {
      expect(client.getServerVersion()).toEqual({
        name: 'catalogkit',
        version: packageJson.version,
      });
      // Tools, and the storefront's one resource: neither list changes, so no list_changed
      // notifications or subscriptions are promised.
      expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {} });
      const { tools } = await client.listTools();
      // The service lists lookup_catalog and get_product (tools/list, read at start): served too.
      expect(tools.map((tool) => tool.name)).toEqual([
        'search_catalog',
        'search_websites',
        'update_collection',
        'lookup_catalog',
        'get_product',
      ]);
      const product = await client.callTool({
        name: 'get_product',
        arguments: { product_id: emulator.data.products[0]!.id, selected: null, preferences: null },
      });
      expect(textOf(product)).toMatch(/\[\[buy:\d{9}\]\]/);
      const catalog = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog('trail running shoes', { placements: ['affiliate'] }),
      });
      expect(catalog.structuredContent).toMatchObject({ tier: 'token' });
      const products = (catalog.structuredContent as { response: { products: unknown[] } }).response
        .products;
      expect(products).toHaveLength(3);
      expect(textOf(catalog)).toMatch(/^3 of \d+ products for "trail running shoes"/);
      // Buy links as references by default: no URL reaches the host's model.
      expect(textOf(catalog)).toMatch(/\[\[buy:\d{9}\]\]/);
      expect(textOf(catalog)).not.toMatch(/https?:/i);

      const renamed = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_summer', { name: 'Beach' }),
      });
      expect(renamed.isError).toBeFalsy();
      expect(emulator.state.collections.get('col_summer')?.name).toBe('Beach');

      const refused = await client.callTool({
        name: 'update_collection',
        arguments: updateCollection('col_nope', { name: 'X' }),
      });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Not found: Collection not found\./);
      expect(JSON.stringify([tools, catalog, renamed, refused])).not.toContain(emulator.keys.valid);
      expect(stderr.join('')).toBe('');
    } finally {
      await client.close();
    }
  });

  it('serves the catalog search alone, anonymously, with only CATALOG_MCP_URL and --include; --buy-links inline', async () => {
    const { client } = await startBin(
      { CATALOG_MCP_URL: emulator.mcpUrl },
      { args: ['--include', 'search_catalog', '--buy-links=inline'] },
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['search_catalog']);
      const anonymous = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog('rain jacket'),
      });
      expect(anonymous.structuredContent).toMatchObject({ tier: 'anonymous' });
      const { response } = anonymous.structuredContent as {
        response: { products: Array<{ variants: Array<{ url?: string }> }> };
      };
      const link = response.products[0]?.variants[0]?.url;
      expect(link).toMatch(/^https:\/\//);
      expect(textOf(anonymous)).toContain(link);
    } finally {
      await client.close();
    }
  });
});

/**
 * What the bin does with `args` and `env` before it serves, computed as its `main` does
 * (the key from the environment is never echoed): the exported parser in this process.
 * The runs of the bin below prove the process's side once per exit path.
 */
function startup(args: string[], env: Record<string, string>) {
  const secrets = [env.CATALOG_API_KEY?.trim() ?? ''].filter((key) => key.length > 0);
  const command = parseArgs(args, packageJson.version, secrets);
  if (command.kind !== 'serve') return command;
  const missing = missingConfiguration(command.include ?? CATALOG_TOOL_NAMES, env);
  return missing === undefined ? command : { kind: 'fail' as const, text: missing, exitCode: 1 };
}

describe('the first run of catalogkit-mcp in a terminal', () => {
  it('--help prints the usage, flags and variables, and exits 0 without waiting on stdin', async () => {
    // One run of the bin: it exits on its own with stdin left open.
    const run = await runBin(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^catalogkit-mcp \S+: the catalog tools as an MCP server/);
    for (const word of [
      '--include',
      '--confirm-changes',
      '--buy-links',
      '--version',
      'CATALOG_API_KEY',
      'CATALOG_BASE_URL',
      'CATALOG_MCP_URL',
    ]) {
      expect(run.stdout).toContain(word);
    }
    // `-h` prints the same text, and `--version` the package's version, on the same path.
    expect(startup(['-h'], {})).toEqual({ kind: 'print', text: run.stdout });
    expect(startup(['--version'], {})).toEqual({
      kind: 'print',
      text: `${packageJson.version}\n`,
    });
  });

  it('with no configuration, fails at start naming each missing variable and the tools needing it', async () => {
    const run = await runBin([], {});
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('catalogkit-mcp: missing configuration:');
    expect(run.stderr).toContain('CATALOG_MCP_URL (needed by search_catalog)');
    expect(run.stderr).toContain('CATALOG_BASE_URL (needed by search_websites, update_collection)');
    expect(run.stderr).toContain('CATALOG_API_KEY (needed by search_websites, update_collection)');
    expect(startup([], {})).toEqual({ kind: 'fail', text: run.stderr, exitCode: 1 });
  });

  it('with only CATALOG_MCP_URL, fails at start and offers --include search_catalog', () => {
    const run = startup([], { CATALOG_MCP_URL: emulator.mcpUrl, CATALOG_API_KEY: ' ' });
    expect(run).toMatchObject({ kind: 'fail', exitCode: 1 });
    const { text } = run as { text: string };
    expect(text).not.toContain('CATALOG_MCP_URL');
    expect(text).toContain('CATALOG_BASE_URL (needed by search_websites, update_collection)');
    // A blank variable is a missing one, as it is for the client.
    expect(text).toContain('CATALOG_API_KEY (needed by');
    expect(text).toContain('or serve only the catalog search with --include search_catalog');
  });

  it('refuses an address that is not a URL, and unknown flags or tools, at start', async () => {
    // The address is checked when the client is made: the bin's own error path, exit 1.
    const badUrl = await runBin([], {
      CATALOG_MCP_URL: 'not a url',
      CATALOG_BASE_URL: emulator.baseUrl,
      CATALOG_API_KEY: emulator.keys.valid,
    });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toBe('catalogkit-mcp: CATALOG_MCP_URL is not a valid URL\n');
    const flag = startup(['--stdio'], {});
    expect(flag).toMatchObject({ kind: 'fail', exitCode: 2 });
    expect((flag as { text: string }).text).toContain('unknown option "--stdio"');
    const tool = startup(['--include=search_catalog,serch_websites'], {});
    expect(tool).toMatchObject({ kind: 'fail', exitCode: 2 });
    expect((tool as { text: string }).text).toContain('unknown tool "serch_websites" in --include');
    // The value is never echoed (it may be a pasted key): the message names the two modes.
    const mode = startup(['--buy-links', 'ck_live_SECRET'], {});
    expect(mode).toMatchObject({ kind: 'fail', exitCode: 2 });
    expect((mode as { text: string }).text).toContain('--buy-links must be reference or inline');
    expect((mode as { text: string }).text).not.toContain('SECRET');
  });

  it('never echoes the key, pasted as an option, its value or a tool name', async () => {
    const key = 'ck_live_SECRETSECRETSECRET1234';
    // One run of the bin: a usage error exits 2, its message on stderr, the key from the
    // environment not in it.
    const bin = await runBin([`--api-key=${key}`], { CATALOG_API_KEY: key });
    expect(bin.code).toBe(2);
    expect(bin.stdout).toBe('');
    expect(bin.stderr).toContain('unknown option "--api-key"');
    expect(bin.stderr).not.toContain(key);
    expect(startup([`--api-key=${key}`], { CATALOG_API_KEY: key })).toEqual({
      kind: 'fail',
      text: bin.stderr,
      exitCode: 2,
    });
    const failure = (args: string[], env: Record<string, string>) => {
      const run = startup(args, env);
      expect([args, run.kind, run.kind === 'fail' && run.exitCode]).toEqual([args, 'fail', 2]);
      return (run as { text: string }).text;
    };
    const runs = [
      [`--${key}`],
      [`--confirm-changes=${key}`],
      ['--confirm-changes', key.slice(0, 12)],
      ['--include', key],
      ['--include', `search_catalog,${key.toLowerCase()}`],
    ];
    for (const args of runs) {
      const text = failure(args, { CATALOG_API_KEY: key });
      expect(text.toLowerCase()).not.toContain('secret');
      expect(text).toMatch(/not shown|must be elicit or annotations-only\n/);
    }
    // Without the key in the environment: a value shaped like a key is not shown either.
    for (const args of [[`--confirm-changes=${key}`], ['--include', key]]) {
      expect(failure(args, {}).toLowerCase()).not.toContain('secret');
    }
    // An unknown option is named without its value, whatever the value.
    for (const value of [key, 'something']) {
      const named = failure([`--api-key=${value}`], { CATALOG_API_KEY: key });
      expect(named).toContain('unknown option "--api-key"');
      expect(named).not.toContain(value);
    }
  });
});
