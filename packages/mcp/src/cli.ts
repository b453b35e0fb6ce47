#!/usr/bin/env node
import { CatalogClient } from '@catalogkit/core';
import { CATALOG_TOOL_NAMES } from '@catalogkit/core/tools';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
// Bundled into dist by tsup, so `--version` prints the version that was published.
import packageJson from '../package.json' with { type: 'json' };
import { type CliCommand, missingConfiguration, parseArgs } from './cli-config.js';
import { allowedHostsFor, serveHttp } from './cli-http.js';
import { createCatalogMcpHandler } from './http-handler.js';
import { catalogServerFor, modernListing } from './modern.js';
import { prepareTools } from './server.js';

type ServeCommand = Extract<CliCommand, { kind: 'serve' }>;

/** What the served tools are made from: one client, and the tools its service lists. */
interface Served {
  client: CatalogClient;
  serviceTools: readonly string[];
  include: readonly string[] | undefined;
}

/**
 * Reads the service's `tools/list` once at start (the server's tool list is fixed for its
 * life), so `lookup_catalog` and `get_product` are served when the service offers them. A
 * failed read is told on stderr and the built-ins are served, as before discovery existed.
 */
async function served(command: ServeCommand): Promise<Served> {
  const client = new CatalogClient();
  const wanted = command.include ?? CATALOG_TOOL_NAMES;
  if (!wanted.some((name) => name !== 'search_websites' && name !== 'update_collection')) {
    return { client, serviceTools: [], include: command.include };
  }
  try {
    const serviceTools = await client.catalog.tools({ timeoutMs: 10_000 });
    return { client, serviceTools, include: command.include };
  } catch (error) {
    process.stderr.write(
      `catalogkit-mcp: could not read the service's tool list (${error instanceof Error ? error.message : 'unknown error'}); serving without lookup_catalog and get_product\n`,
    );
    return { client, serviceTools: [], include: command.include };
  }
}

/**
 * Serves the stateless HTTP handler until SIGINT or SIGTERM, then exits 0. stdout is free
 * here (the protocol goes over HTTP), so the URL and host configurations are printed there.
 */
async function serveOverHttp(
  command: ServeCommand,
  http: NonNullable<ServeCommand['http']>,
  { client, serviceTools, include }: Served,
) {
  const handle = createCatalogMcpHandler({
    client,
    serviceTools,
    ...(include ? { include } : {}),
    ...(command.confirmChanges ? { confirmChanges: command.confirmChanges } : {}),
    ...(command.buyLinks ? { buyLinks: command.buyLinks } : {}),
    storefront: { showCommission: command.showCommission },
    allowedHosts: allowedHostsFor(http.host),
  });
  await serveHttp(handle, http, (text) => process.stdout.write(text));
  process.exit(0);
}

/** Starts serving once the configuration the served tools need is there. */
async function serve(command: ServeCommand): Promise<void> {
  const missing = missingConfiguration(command.include ?? CATALOG_TOOL_NAMES, process.env);
  if (missing !== undefined) {
    process.stderr.write(missing);
    process.exit(1);
  }
  const { client, serviceTools, include } = await served(command);
  if (command.http) return serveOverHttp(command, command.http, { client, serviceTools, include });
  // Addresses are checked here too: a bad URL is a ConfigurationError before any host call.
  const tools = prepareTools({
    client,
    serviceTools,
    ...(include ? { include } : {}),
    ...(command.confirmChanges ? { confirmChanges: command.confirmChanges } : {}),
    ...(command.buyLinks ? { buyLinks: command.buyLinks } : {}),
    storefront: { showCommission: command.showCommission },
  });
  const listing = modernListing(tools);
  // Both revisions: the opening message picks the era (2026-07-28 `server/discover`, or the
  // 2025-11-25 `initialize`), and one server of that era serves the connection.
  serveStdio(({ era }) => catalogServerFor(tools, listing, era));
  if (process.stdin.isTTY) {
    process.stderr.write(
      `catalogkit-mcp: serving ${tools.listing.map((tool) => tool.name).join(', ')} over stdio; waiting for an MCP host (Ctrl+C to stop). Run with --help for how hosts start it.\n`,
    );
  }
}

/**
 * `npx @catalogkit/mcp`: the catalog tools over stdio for MCP hosts (Claude Desktop, Cursor,
 * ...). The client reads CATALOG_API_KEY, CATALOG_BASE_URL and CATALOG_MCP_URL from the
 * environment the host gives it. stdout carries the protocol, so messages go to stderr;
 * `--help` and `--version` print to stdout and exit.
 */
async function main(): Promise<void> {
  // The key never appears in an error, even pasted where an option or its value goes.
  const secrets = [process.env.CATALOG_API_KEY?.trim() ?? ''].filter((key) => key.length > 0);
  const command = parseArgs(process.argv.slice(2), packageJson.version, secrets);
  if (command.kind === 'print') {
    process.stdout.write(command.text);
    return;
  }
  if (command.kind === 'fail') {
    process.stderr.write(command.text);
    process.exit(command.exitCode);
  }
  await serve(command);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `catalogkit-mcp: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
