#!/usr/bin/env node
import { serveStdio } from '@modelcontextprotocol/server/stdio';
// Bundled into dist by tsup, so `--version` prints the version that was published.
import packageJson from '../package.json' with { type: 'json' };
import { type CliCommand, missingConfiguration, parseArgs } from './cli-config.js';
import { allowedHostsFor, serveHttp } from './cli-http.js';
import { createCatalogMcpHandler } from './http-handler.js';
import { catalogServerFor, modernListing } from './modern.js';
import { prepareTools } from './server.js';

type ServeCommand = Extract<CliCommand, { kind: 'serve' }>;

/**
 * Serves the stateless HTTP handler until SIGINT or SIGTERM, then exits 0. stdout is free
 * here (the protocol goes over HTTP), so the URL and host configurations are printed there.
 */
async function serveOverHttp(command: ServeCommand, http: NonNullable<ServeCommand['http']>) {
  const handle = createCatalogMcpHandler({
    include: command.include,
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
  const missing = missingConfiguration(command.include, process.env);
  if (missing !== undefined) {
    process.stderr.write(missing);
    process.exit(1);
  }
  if (command.http) return serveOverHttp(command, command.http);
  // Addresses are checked here too: a bad URL is a ConfigurationError before any host call.
  const tools = prepareTools({
    include: command.include,
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
      `catalogkit-mcp: serving ${command.include.join(', ')} over stdio; waiting for an MCP host (Ctrl+C to stop). Run with --help for how hosts start it.\n`,
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
