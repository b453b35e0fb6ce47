import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { EdgeVM } from '@edge-runtime/vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let emulator: RunningEmulator;
let outDir: string;
let bundle: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  outDir = await mkdtemp(join(tmpdir(), 'catalogkit-mcp-edge-'));
  await build({
    entryPoints: [fileURLToPath(new URL('./support/edge-entry.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    conditions: ['@catalogkit/source'],
    outfile: join(outDir, 'edge.js'),
    logLevel: 'silent',
  });
  bundle = await readFile(join(outDir, 'edge.js'), 'utf8');
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** What the VM sends back: the JSON-RPC answers, in the parts the test reads. */
interface EdgeOutcome {
  initialize: { result: { serverInfo: { name: string } } };
  list: { result: { tools: { name: string }[] } };
  call: { result: { content: { text: string }[]; structuredContent: { request: unknown } } };
  refused: { result: { isError?: boolean; content: { text: string }[] } };
}

// Runs in the VM: three JSON-RPC exchanges with the handler, as a Streamable HTTP client sends them.
// A remote deploy names its host in allowedHosts: the loopback names are the default.
const EXCHANGES = `async (clientOptions) => {
  const handle = createCatalogMcpHandler({ clientOptions, allowedHosts: ['edge.test'] });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = async (id, method, params) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const response = await handle(new Request('https://edge.test/mcp', { method: 'POST', headers, body }));
    return response.json();
  };
  const clientInfo = { name: 'edge-test', version: '1.0.0' };
  const initialize = await post(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo });
  const list = await post(2, 'tools/list', {});
  const args = { query: 'outdoor', limit: 2, category_ids: null, country: 'GB' };
  const call = await post(3, 'tools/call', { name: 'search_websites', arguments: args });
  const refused = await post(4, 'tools/call', { name: 'search_websites', arguments: { ...args, query: '' } });
  return JSON.stringify({ initialize, list, call, refused });
}`;

describe('the HTTP handler in the edge runtime (@edge-runtime/vm: Web APIs only, no eval)', () => {
  it('answers initialize, tools/list and tools/call like on Node', async () => {
    const vm = new EdgeVM();
    vm.evaluate(bundle);
    const clientOptions = {
      apiKey: emulator.keys.valid,
      baseUrl: emulator.baseUrl,
      mcpUrl: emulator.mcpUrl,
    };
    // Serialised inside the VM so only strings cross between the two realms.
    const json = await vm.evaluate<Promise<string>>(
      `(${EXCHANGES})(${JSON.stringify(clientOptions)})`,
    );
    const { initialize, list, call, refused } = JSON.parse(json) as EdgeOutcome;
    expect(initialize.result.serverInfo.name).toBe('catalogkit');
    expect(list.result.tools.map((tool) => tool.name)).toEqual([
      'search_catalog',
      'search_websites',
      'update_collection',
    ]);
    expect(call.result.content[0]?.text).toMatch(
      /^2 websites for "outdoor" \(commission rates for GB\)\./,
    );
    expect(call.result.structuredContent.request).toEqual({
      query: 'outdoor',
      limit: 2,
      country: 'GB',
    });
    expect(refused.result).toMatchObject({ isError: true });
    expect(refused.result.content[0]?.text).toMatch(/^Invalid arguments: query: /);
    expect(json).not.toContain(emulator.keys.valid);
  });

  it('lacks what edge workers lack (negative control)', () => {
    const vm = new EdgeVM();
    expect(() => vm.evaluate('new Function("")')).toThrow(/Code generation/);
    expect(() => vm.evaluate('process.env')).toThrow(/is not defined/);
  });
});
