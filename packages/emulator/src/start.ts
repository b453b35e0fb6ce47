import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createEmulator, type EmulatorHandles, MCP_PREFIX, REST_PREFIX } from './app.js';
import type { EmulatorOptions } from './options.js';

/** Options of `startEmulator`: the emulator's plus where to listen. */
export interface StartEmulatorOptions extends EmulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1, loopback only). */
  host?: string;
}

/** A running emulator. */
export interface RunningEmulator extends EmulatorHandles {
  /** REST base address, e.g. `http://127.0.0.1:5123/api` (paths are `${baseUrl}/v1/...`). */
  baseUrl: string;
  /** MCP base address, e.g. `http://127.0.0.1:5123/ucp` (the endpoint is `${mcpUrl}/mcp`). */
  mcpUrl: string;
  /** The port actually listened on (the free one picked for `port: 0`). */
  port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Starts the emulator on real HTTP (one port, REST under `/api`, MCP under `/ucp`). */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...emulatorOptions } = options;
  const app = createEmulator(emulatorOptions);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    ...app.emulator,
    baseUrl: `${origin}${REST_PREFIX}`,
    mcpUrl: `${origin}${MCP_PREFIX}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive and SSE connections would otherwise hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
