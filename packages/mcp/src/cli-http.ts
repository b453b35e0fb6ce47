import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { HttpListen } from './cli-config.js';
import type { CatalogMcpHandler } from './http-handler.js';

/** The path the HTTP command serves MCP on; every other path is answered 404. */
export const MCP_PATH = '/mcp';

/** The loopback names the handler accepts in `Host` whichever one is bound. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The host names the handler accepts in `Host`: the loopback names, and the bound one (a
 * canonical loopback host, such as `127.0.0.2`).
 */
export function allowedHostsFor(host: string): string[] {
  return LOOPBACK_HOSTS.includes(host) ? LOOPBACK_HOSTS : [...LOOPBACK_HOSTS, host];
}

/** The URL a client on this machine uses: the canonical host, as bound. */
function urlOf(host: string, port: number): string {
  return `http://${host}:${port}${MCP_PATH}`;
}

/** The address to bind: the canonical host without the brackets of an IPv6 literal. */
function bindAddressOf(host: string): string {
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * What `--http` prints on stdout: the URL and, for each host, the configuration to paste.
 * Claude Desktop's file starts local commands only, so it reaches the URL through the
 * `mcp-remote` bridge (or use its stdio entry, in the README).
 */
export function startupText(url: string): string {
  return `catalogkit-mcp: serving MCP over HTTP at ${url}

Cursor (~/.cursor/mcp.json or .cursor/mcp.json):
${json({ mcpServers: { catalogkit: { url } } })}

VS Code (.vscode/mcp.json):
${json({ servers: { catalogkit: { type: 'http', url } } })}

Claude Desktop (claude_desktop_config.json; it starts local commands, so the mcp-remote
bridge connects it to this URL):
${json({ mcpServers: { catalogkit: { command: 'npx', args: ['-y', 'mcp-remote', url, '--allow-http'] } } })}

Claude Code: claude mcp add --transport http catalogkit ${url}

Press Ctrl+C to stop.
`;
}

function listen(server: Server, { port, host }: HttpListen): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bindAddressOf(host), () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Why the port could not be bound, in words a person acts on. */
function listenFailure(error: unknown, { port, host }: HttpListen): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return `port ${port} on ${host} is in use; pick another with --port (0 picks a free one)`;
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `cannot bind ${host}: not an address of this machine`;
  }
  if (code === 'EACCES') return `not allowed to bind port ${port} on ${host}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Serves `handle` at {@link MCP_PATH} on `listenAt` until SIGINT or SIGTERM, then stops
 * accepting, closes open connections and resolves. Throws a readable error when the port
 * cannot be bound.
 */
export async function serveHttp(
  handle: CatalogMcpHandler,
  listenAt: HttpListen,
  announce: (text: string) => void,
): Promise<void> {
  const listener = getRequestListener(async (request) => {
    if (new URL(request.url).pathname !== MCP_PATH) {
      return new Response('Not found: MCP is served at /mcp.\n', { status: 404 });
    }
    return handle(request);
  });
  const server = createServer(listener);
  let address: AddressInfo;
  try {
    address = await listen(server, listenAt);
  } catch (error) {
    throw new Error(listenFailure(error, listenAt));
  }
  announce(startupText(urlOf(listenAt.host, address.port)));
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Keep-alive and in-flight connections would hold close() open; the process is ending.
    server.closeAllConnections();
  });
  process.stderr.write(`catalogkit-mcp: stopped (${signal}).\n`);
}
