import { serve } from '@hono/node-server';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Hono } from 'hono';
import type { CatalogMcpHandler } from '../../src/index.js';

/** The handler mounted in a Hono app, served by Node on loopback. */
export interface MountedHandler {
  url: URL;
  close(): Promise<void>;
}

export async function mountInHono(handle: CatalogMcpHandler): Promise<MountedHandler> {
  const app = new Hono();
  app.all('/mcp', (c) => handle(c.req.raw));
  let server: ReturnType<typeof serve> | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve(info.port),
    );
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () => new Promise((resolve) => server?.close(() => resolve())),
  };
}

/** An SDK client connected over HTTP, with the text of every HTTP answer it received. */
export interface RecordingClient {
  client: Client;
  received: string[];
}

export async function connectHttpClient(
  url: URL,
  clientOptions?: ClientOptions,
): Promise<RecordingClient> {
  const received: string[] = [];
  const transport = new StreamableHTTPClientTransport(url, {
    // Records what the host receives (the transport's own fetch option; the network is real).
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      received.push(await response.clone().text());
      return response;
    },
  });
  const client = new Client({ name: 'catalogkit-test-host', version: '1.0.0' }, clientOptions);
  await client.connect(transport);
  return { client, received };
}
