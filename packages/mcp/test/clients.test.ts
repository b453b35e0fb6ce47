import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport as AiSdkStdioTransport } from '@ai-sdk/mcp/mcp-stdio';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binArgs } from './support/bin.js';
import { textOf } from './support/inputs.js';

// Real clients of each kind, each listing the tools and calling all three, against the real
// CLI over stdio and over HTTP (`--http`). The operator accepts unconfirmed changes here
// (--confirm-changes annotations-only): the confirmation itself is tested elsewhere.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
/** Node's arguments that start the bin (bundled once: support/bin.ts), set before the tests. */
let SERVER_ARGS: string[] = [];
// The built-ins, then the service's own lookup tools: the bin reads the emulator's tools/list.
const TOOL_NAMES = [
  'search_catalog',
  'search_websites',
  'update_collection',
  'lookup_catalog',
  'get_product',
];

let emulator: RunningEmulator;
let http: { child: ChildProcessWithoutNullStreams; url: URL };

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    CATALOG_API_KEY: emulator.keys.valid,
    CATALOG_BASE_URL: emulator.baseUrl,
    CATALOG_MCP_URL: emulator.mcpUrl,
  };
}

beforeAll(async () => {
  [emulator, SERVER_ARGS] = await Promise.all([
    startEmulator({ port: 0 }),
    binArgs(['--confirm-changes', 'annotations-only']),
  ]);
  const child = spawn(process.execPath, [...SERVER_ARGS, '--http', '--port', '0'], {
    cwd: packageDir,
    env: env(),
  });
  let stdout = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = /serving MCP over HTTP at (\S+)/.exec(stdout);
      if (found?.[1]) resolve(new URL(found[1]));
    });
    child.on('exit', (code) => reject(new Error(`the HTTP CLI exited ${code}`)));
  });
  http = { child, url };
});

afterAll(async () => {
  if (http) {
    const exited = once(http.child, 'exit');
    http.child.kill('SIGTERM');
    await exited;
  }
  await emulator?.close();
});

/** What the test needs of a client, whatever its library. */
interface AnyClient {
  /** The protocol revision it speaks, where the library says. */
  revision?: string;
  list(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }>;
  close(): Promise<void>;
}

type Transport = 'stdio' | 'http';

async function modernClient(transport: Transport): Promise<AnyClient> {
  const client = new ModernClient(
    { name: 'matrix', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    transport === 'stdio'
      ? new ModernStdioTransport({
          command: process.execPath,
          args: SERVER_ARGS,
          cwd: packageDir,
          env: env(),
        })
      : new ModernHttpTransport(http.url),
  );
  return {
    revision: client.getNegotiatedProtocolVersion(),
    list: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError === true, text: textOf(result) };
    },
    close: () => client.close(),
  };
}

async function legacyClient(transport: Transport): Promise<AnyClient> {
  const client = new LegacyClient({ name: 'matrix', version: '1.0.0' });
  await client.connect(
    transport === 'stdio'
      ? new LegacyStdioTransport({
          command: process.execPath,
          args: SERVER_ARGS,
          cwd: packageDir,
          env: env(),
        })
      : new LegacyHttpTransport(http.url),
  );
  return {
    revision: '2025-11-25',
    list: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError === true, text: textOf(result) };
    },
    close: () => client.close(),
  };
}

async function aiSdkClient(transport: Transport): Promise<AnyClient> {
  const client = await createMCPClient({
    transport:
      transport === 'stdio'
        ? new AiSdkStdioTransport({
            command: process.execPath,
            args: SERVER_ARGS,
            cwd: packageDir,
            env: env(),
          })
        : { type: 'http', url: http.url.href },
  });
  return {
    list: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError === true, text: textOf(result) };
    },
    close: () => client.close(),
  };
}

async function langChainClient(transport: Transport): Promise<AnyClient> {
  const client = new MultiServerMCPClient({
    mcpServers: {
      catalogkit:
        transport === 'stdio'
          ? {
              transport: 'stdio',
              command: process.execPath,
              args: [...SERVER_ARGS],
              cwd: packageDir,
              env: env(),
            }
          : { transport: 'http', url: http.url.href },
    },
  });
  const tools = await client.getTools();
  return {
    list: async () => tools.map((tool) => tool.name),
    call: async (name, args) => {
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`${name} not listed`);
      try {
        const output: unknown = await tool.invoke(args);
        return {
          isError: false,
          text: typeof output === 'string' ? output : JSON.stringify(output),
        };
      } catch (error) {
        // The adapters raise a tool's isError result as an exception.
        return { isError: true, text: error instanceof Error ? error.message : String(error) };
      }
    },
    close: () => client.close(),
  };
}

const INSPECTOR = fileURLToPath(new URL('../node_modules/.bin/mcp-inspector', import.meta.url));

/**
 * The MCP Inspector in CLI mode: one process per method, printing the result as JSON. Over
 * stdio it starts the server itself, configured by `-e`.
 */
async function inspectorClient(transport: Transport): Promise<AnyClient> {
  const target =
    transport === 'stdio'
      ? [
          '--cwd',
          packageDir,
          ...Object.entries(env()).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
          '--connect-timeout',
          '60000',
        ]
      : [http.url.href];
  const command = transport === 'stdio' ? ['--', process.execPath, ...SERVER_ARGS] : [];
  const run = async (method: string[]): Promise<unknown> => {
    const { stdout } = await promisify(execFile)(
      INSPECTOR,
      ['--cli', ...target, ...method, ...command],
      { cwd: packageDir, env: { PATH: process.env.PATH ?? '' }, timeout: 90_000 },
    );
    return JSON.parse(stdout);
  };
  return {
    list: async () => {
      const { tools } = (await run(['--method', 'tools/list'])) as { tools: { name: string }[] };
      return tools.map((tool) => tool.name);
    },
    call: async (name, args) => {
      const pairs = Object.entries(args).map(([key, value]) =>
        typeof value === 'string' ? `${key}=${value}` : `${key}=${JSON.stringify(value)}`,
      );
      const result = (await run([
        '--method',
        'tools/call',
        '--tool-name',
        name,
        '--tool-arg',
        ...pairs,
      ])) as { isError?: boolean; content: { type: string; text?: string }[] };
      return { isError: result.isError === true, text: textOf(result) };
    },
    close: async () => undefined,
  };
}

const CLIENTS = {
  '@modelcontextprotocol/client 2.x (2026-07-28)': modernClient,
  '@modelcontextprotocol/sdk 1.32 Client (2025-11-25)': legacyClient,
  '@ai-sdk/mcp': aiSdkClient,
  '@langchain/mcp-adapters': langChainClient,
  'the MCP Inspector CLI': inspectorClient,
} as const;

let renames = 0;

describe.each(['stdio', 'http'] as const)('over %s', (transport) => {
  it.each(Object.keys(CLIENTS) as (keyof typeof CLIENTS)[])(
    '%s lists the tools and calls all three',
    async (label) => {
      const client = await CLIENTS[label](transport);
      try {
        if (label.includes('2026-07-28')) expect(client.revision).toBe('2026-07-28');
        expect(await client.list()).toEqual(TOOL_NAMES);
        // The arguments a model writes: optional fields left out.
        const catalog = await client.call('search_catalog', {
          query: 'trail running shoes',
          limit: 2,
        });
        expect(catalog.isError).toBe(false);
        expect(catalog.text).toMatch(/2 of \d+ products for \\?"trail running shoes/);
        const websites = await client.call('search_websites', { query: 'running' });
        expect(websites.isError).toBe(false);
        renames += 1;
        const name = `Matrix ${transport} ${renames}`;
        const renamed = await client.call('update_collection', {
          collection_id: 'col_summer',
          name,
        });
        expect(renamed.isError).toBe(false);
        expect(emulator.state.collections.get('col_summer')?.name).toBe(name);
      } finally {
        await client.close();
      }
    },
    // Over stdio each client starts the bin (the Inspector once per method).
    180_000,
  );
});
