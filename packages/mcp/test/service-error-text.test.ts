import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogMcpHandler } from '../src/index.js';
import { connectHttpClient, type MountedHandler, mountInHono } from './support/http-host.js';
import { searchCatalog, textOf } from './support/inputs.js';

// Red-team finding F5: the service's MCP error message reached the model as it was, so a
// service printing "key ending in <last 10 characters>" leaked part of the key (the key's
// redaction only catches it whole). The model now reads a fixed text per error code.

const KEY = 'ck_live_7f3a9c1e5b2d4f6a8c0e';

let service: Server;
let mounted: MountedHandler;

beforeAll(async () => {
  // A careless service: its JSON-RPC errors quote the end of the caller's key.
  service = createServer((request, response) => {
    let body = '';
    request.on('data', (part: Buffer) => {
      body += part.toString('utf8');
    });
    request.on('end', () => {
      const { id } = JSON.parse(body || '{}') as { id?: unknown };
      const key = String(request.headers.authorization ?? request.headers['x-api-key'] ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: id ?? null,
          error: { code: -32001, message: `key ending in ${key.slice(-10)} is not valid` },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const { port } = service.address() as AddressInfo;
  mounted = await mountInHono(
    createCatalogMcpHandler({
      include: ['search_catalog'],
      clientOptions: { apiKey: KEY, mcpUrl: `http://127.0.0.1:${port}/ucp/mcp` },
    }),
  );
});

afterAll(async () => {
  await mounted?.close();
  await new Promise((resolve) => service?.close(resolve));
});

describe("the service's MCP error text", () => {
  it('is never forwarded: the model reads a fixed text naming the code, no part of the key', async () => {
    const { client, received } = await connectHttpClient(mounted.url);
    try {
      const result = await client.callTool({
        name: 'search_catalog',
        arguments: searchCatalog('trail running shoes'),
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'The catalog service reported an error (MCP error -32001). You may try once more later.',
      );
      expect(received.join('\n')).not.toContain(KEY.slice(-10));
    } finally {
      await client.close();
    }
  });
});
