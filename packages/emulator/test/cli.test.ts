import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogData } from '../src/index.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Runs the CLI from source and resolves with its banner once it is listening. */
function runCli(args: string[]): Promise<{ output: string; child: ChildProcess }> {
  const child = spawn(tsx, ['--conditions=@catalogkit/source', 'src/cli.ts', ...args], {
    cwd: packageDir,
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('CATALOG_API_KEY=')) resolve({ output, child });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`CLI exited with ${code}: ${output}`)));
  });
}

const line = (output: string, name: string) =>
  output.match(new RegExp(`export ${name}=(\\S+)`))?.[1] ?? '';

describe('CLI', () => {
  it('prints its URLs and demo keys and serves them (--port 0 --seed 7 --json)', async () => {
    const { output } = await runCli(['--port', '0', '--seed', '7', '--json']);
    const baseUrl = line(output, 'CATALOG_BASE_URL');
    const mcpUrl = line(output, 'CATALOG_MCP_URL');
    const key = line(output, 'CATALOG_API_KEY');
    expect(output).toMatch(/creditsExhausted\s+\S+/);
    expect(output).toMatch(/paymentRequired\s+\S+/);
    const search = await fetch(`${baseUrl}/v1/websites/search?query=fellandtrail.co.uk`, {
      headers: { 'x-api-key': key },
    });
    const { websites } = (await search.json()) as { websites: { id: string }[] };
    const seven = catalogData(7).websites.find((w) => w.domain === 'fellandtrail.co.uk');
    expect(websites[0]?.id).toBe(seven?.id);
    expect(seven?.id).not.toBe(
      catalogData(42).websites.find((w) => w.domain === 'fellandtrail.co.uk')?.id,
    );
    const mcp = await fetch(`${mcpUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('--no-lookup-tools serves search_catalog only', async () => {
    const { output } = await runCli(['--port', '0', '--json', '--no-lookup-tools']);
    expect(output).toMatch(/search_catalog only/);
    const mcp = await fetch(`${line(output, 'CATALOG_MCP_URL')}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const { result } = (await mcp.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toEqual(['search_catalog']);
  });

  it('refuses a bad option with usage', async () => {
    await expect(runCli(['--port', 'eighty'])).rejects.toThrow(
      /--port must be a non-negative integer[\s\S]*Usage/,
    );
  });
});
