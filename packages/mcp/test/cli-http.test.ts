import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli-config.js';
import { binArgs, runBin } from './support/bin.js';
import { connectHttpClient } from './support/http-host.js';
import { searchCatalog } from './support/inputs.js';
import { rawPost } from './support/raw-http.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
});

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    CATALOG_API_KEY: emulator.keys.valid,
    CATALOG_BASE_URL: emulator.baseUrl,
    CATALOG_MCP_URL: emulator.mcpUrl,
  };
}

interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  url: URL;
  stderr: () => string;
}

/** Spawns `catalogkit-mcp --http ...` and waits for the URL it prints. */
async function startHttpCli(args: string[]): Promise<RunningCli> {
  const child = spawn(process.execPath, await binArgs(['--http', ...args]), {
    cwd: packageDir,
    env: env(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = /serving MCP over HTTP at (\S+)\n[\s\S]*Press Ctrl\+C/.exec(stdout);
      if (found?.[1]) resolve(new URL(found[1]));
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, stdout, url, stderr: () => stderr };
}

async function stop(cli: RunningCli, signal: NodeJS.Signals): Promise<number | null> {
  const exited = once(cli.child, 'exit');
  cli.child.kill(signal);
  const [code] = (await exited) as [number | null];
  return code;
}

/** Whether something accepts connections on the port (the server is gone once it does not). */
async function portOpen(port: number): Promise<boolean> {
  const probe = createServer();
  probe.once('error', () => undefined);
  const bound = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise((resolve) => probe.close(resolve));
  return !bound;
}

describe('catalogkit-mcp --http', () => {
  it('serves the stateless handler on loopback, prints the URL and each host config, stops on SIGTERM', async () => {
    // Loopback by default; and one canonical host for the bind, the allowed Host and the
    // printed URL: `--host 0x7f.1` is 127.0.0.1 throughout (the client below reaches it).
    expect(parseArgs(['--http'], '0.0.0')).toMatchObject({
      http: { host: '127.0.0.1', port: 8931 },
    });
    expect(parseArgs(['--http', '--host', '0x7f.1'], '0.0.0')).toMatchObject({
      http: { host: '127.0.0.1' },
    });
    const cli = await startHttpCli(['--port', '0', '--host', '0x7f.1']);
    expect(cli.url.hostname).toBe('127.0.0.1');
    expect(cli.url.pathname).toBe('/mcp');
    const url = cli.url.href;
    // Each host's config to paste names this very URL.
    expect(cli.stdout).toContain(`"url": "${url}"`); // Cursor
    expect(cli.stdout).toContain('"type": "http"'); // VS Code
    expect(cli.stdout).toContain(`"mcp-remote",\n`); // Claude Desktop, through the bridge
    expect(cli.stdout).toContain(`claude mcp add --transport http catalogkit ${url}`);
    expect(cli.stdout).not.toContain(emulator.keys.valid);

    const { client } = await connectHttpClient(cli.url);
    const { tools } = await client.listTools();
    // The service lists lookup_catalog and get_product (read at start): served after the built-ins.
    expect(tools.map((tool) => tool.name)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
      'lookup_catalog',
      'get_product',
    ]);
    const found = await client.callTool({
      name: 'search_catalog',
      arguments: searchCatalog('trail running shoes'),
    });
    expect(found.structuredContent).toMatchObject({ tier: 'token' });
    await client.close();

    // A name rebound to loopback is refused by the default allowed hosts.
    const rebound = await rawPost(cli.url, {
      chunk: new TextEncoder().encode('{}'),
      chunks: 1,
      everyMs: 10,
      headers: { host: `attacker.example:${cli.url.port}`, origin: 'http://attacker.example' },
    });
    expect(rebound.status).toBe(403);
    expect((await fetch(new URL('/other', cli.url))).status).toBe(404);

    const port = Number(cli.url.port);
    expect(await portOpen(port)).toBe(true);
    expect(await stop(cli, 'SIGTERM')).toBe(0);
    expect(cli.stderr()).toContain('stopped (SIGTERM)');
    expect(await portOpen(port)).toBe(false);
  });

  it('exits 0 on SIGINT (Ctrl+C), even with a client connection kept alive', async () => {
    const cli = await startHttpCli(['--port', '0', '--host', 'localhost']);
    expect(cli.url.hostname).toBe('localhost');
    const { client } = await connectHttpClient(cli.url);
    await client.listTools();
    expect(await stop(cli, 'SIGINT')).toBe(0);
    expect(cli.stderr()).toContain('stopped (SIGINT)');
    await client.close();
  });

  it('a port in use is a clear error and exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const run = await runBin(['--http', '--port', String(port)], env());
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  // Red-team findings F3 and F4: a wildcard bind served every network peer that sent
  // `Host: localhost`, and `--host 0` printed a URL it then refused. The command line is read
  // before anything starts (parseArgs; the bin prints its text and exits 2: stdio.test.ts).
  it('refuses wildcard and non-loopback binds, saying to put a proxy with auth in front', () => {
    for (const host of ['0.0.0.0', '::', '0', '0x0', '192.168.1.5']) {
      const run = parseArgs(['--http', '--port', '0', '--host', host], '0.0.0');
      expect(run, host).toMatchObject({ kind: 'fail', exitCode: 2 });
      expect((run as { text: string }).text, host).toContain('--host must be a loopback address');
      expect((run as { text: string }).text, host).toContain('reverse proxy that authenticates');
    }
  });

  it('refuses bad --port and --host values without echoing them, and --port without --http', () => {
    const secrets = [emulator.keys.valid];
    for (const [args, message] of [
      [['--http', '--port', emulator.keys.valid], '--port must be a number from 0 to 65535'],
      [['--http', '--port', '70000'], '--port must be a number from 0 to 65535'],
      [['--http', '--host', 'a b'], '--host must be a host name or an IP address'],
      [['--http', '--host', emulator.keys.valid], '--host must be a host name or an IP address'],
      [['--port', '8080'], '--port and --host go with --http'],
    ] as const) {
      const run = parseArgs([...args], '0.0.0', secrets);
      expect(run).toMatchObject({ kind: 'fail', exitCode: 2 });
      expect((run as { text: string }).text).toContain(message);
      expect((run as { text: string }).text).not.toContain(emulator.keys.valid);
    }
  });
});
