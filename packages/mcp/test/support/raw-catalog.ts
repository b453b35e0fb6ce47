// A catalog service on loopback that answers every search with the products given as raw
// JSON text (so keys such as __proto__, and nesting JSON.stringify could not make, reach the
// client as the wire carries them). Ported from the storefront red team's catalog.ts.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type CatalogMcpHandlerOptions, createCatalogMcpHandler } from '../../src/index.js';
import type { StorefrontOptions } from '../../src/storefront.js';
import { connectHttpClient, mountInHono } from './http-host.js';
import { searchCatalog } from './inputs.js';

async function drain(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startRawCatalog(productsJson: string) {
  const server = createServer((request, response) => {
    drain(request)
      .then((body) => {
        const rpc = JSON.parse(body) as { id?: unknown };
        response.writeHead(200, { 'content-type': 'application/json', 'x-ucp-auth-tier': 'token' });
        response.end(
          `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id ?? null)},"result":{"content":[{"type":"text","text":""}],"structuredContent":{"products":${productsJson}}}}`,
        );
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    mcpUrl: `http://127.0.0.1:${port}/ucp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a host gets: the storefront HTML and a `limit: 3` search's result, through the handler. */
export async function searchThrough(
  productsJson: string,
  query = 'shoes',
  storefront?: StorefrontOptions,
  extra: Partial<CatalogMcpHandlerOptions> = {},
) {
  const catalog = await startRawCatalog(productsJson);
  const mounted = await mountInHono(
    createCatalogMcpHandler({
      clientOptions: { apiKey: 'ck_test_0123456789abcdef0123', mcpUrl: catalog.mcpUrl },
      include: ['search_catalog'],
      ...(storefront ? { storefront } : {}),
      ...extra,
    }),
  );
  const { client } = await connectHttpClient(mounted.url);
  try {
    const read = await client.readResource({ uri: 'ui://catalogkit/storefront.html' });
    const html = read.contents[0] && 'text' in read.contents[0] ? read.contents[0].text : '';
    const input = searchCatalog(query, { limit: 3 });
    const result = (await client.callTool({
      name: 'search_catalog',
      arguments: input,
    })) as CallToolResult;
    return { html, input, result };
  } finally {
    await client.close();
    await mounted.close();
    await catalog.close();
  }
}
