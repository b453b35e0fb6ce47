import {
  CATALOG_TOOL_NAMES,
  type CatalogToolsOptions,
  LOOKUP_TOOL_NAMES,
} from '@catalogkit/core/tools';
import type { ConfirmChanges } from './confirm.js';

type BuyLinkMode = NonNullable<CatalogToolsOptions['buyLinks']>;

/**
 * Where `--http` listens: a port (0 for any free one) on a loopback host, in the URL
 * parser's canonical form (`127.0.0.1`, `[::1]`, `localhost`): the one value the bind, the
 * allowed `Host` and the printed URL are all made from.
 */
export interface HttpListen {
  port: number;
  host: string;
}

/** The loopback address `--http` binds by default: only this machine can reach it. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
/** The port `--http` listens on by default. */
export const DEFAULT_HTTP_PORT = 8931;

/**
 * What the command line asks for: run the server with options (over stdio, or over HTTP
 * when `http` is set), or print and exit.
 */
export type CliCommand =
  | {
      kind: 'serve';
      /** `--include`; unset: every built-in, and the service's lookup tools when it lists them. */
      include: ServableTool[] | undefined;
      confirmChanges: ConfirmChanges | undefined;
      http: HttpListen | undefined;
      buyLinks: BuyLinkMode | undefined;
      /** `--show-commission`: the storefront's cards show each offer's commission. */
      showCommission: boolean;
    }
  | { kind: 'print'; text: string }
  | { kind: 'fail'; text: string; exitCode: number };

type EnvName = 'CATALOG_API_KEY' | 'CATALOG_BASE_URL' | 'CATALOG_MCP_URL';

/** The tools `--include` may name: the built-ins, and the service's own when it lists them. */
const SERVABLE = [...CATALOG_TOOL_NAMES, ...LOOKUP_TOOL_NAMES] as const;
/** A tool the command line may serve. */
export type ServableTool = (typeof SERVABLE)[number];

/** The variables each tool cannot run without. */
const NEEDS: Readonly<Record<ServableTool, readonly EnvName[]>> = {
  search_catalog: ['CATALOG_MCP_URL'],
  lookup_catalog: ['CATALOG_MCP_URL'],
  get_product: ['CATALOG_MCP_URL'],
  search_websites: ['CATALOG_BASE_URL', 'CATALOG_API_KEY'],
  update_collection: ['CATALOG_BASE_URL', 'CATALOG_API_KEY'],
};

/** The usage text of `catalogkit-mcp --help`. */
export function usage(version: string): string {
  return `catalogkit-mcp ${version}: the catalog tools as an MCP server over stdio.
MCP hosts (Claude Desktop, Cursor, VS Code, ...) start it themselves; run by hand it waits
for a host on stdin. With --http it serves Streamable HTTP instead and prints the URL and
the configuration to paste into each host.

Usage: catalogkit-mcp [options]
       catalogkit-mcp --http [--port N] [--host H] [options]

Options:
  --http                     Serve over HTTP (stateless Streamable HTTP at /mcp)
  --port <n>                 Port for --http (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --host <name>              Loopback address for --http to bind (default ${DEFAULT_HTTP_HOST};
                             ::1 or localhost). Other addresses are refused: anyone who
                             can reach it spends your API key (use a proxy with auth)
  --include <tools>          Comma-separated tools to serve (default: all):
                             ${CATALOG_TOOL_NAMES.join(', ')}, and
                             ${LOOKUP_TOOL_NAMES.join(', ')} when the service lists them
  --confirm-changes <mode>   elicit (default): ask the user through the host before
                             update_collection runs; refused where the host cannot ask
                             (no elicitation support, or --http);
                             annotations-only: you accept unconfirmed changes, left to
                             the host's own tool approval
  --buy-links <mode>         reference (default): the model reads [[buy:123456789]], never
                             a URL; the exact links are in each result's structuredContent
                             for the host to resolve or render; inline: the model reads the
                             links, for hosts that show its text as written
  --show-commission          Show each offer's commission on the storefront's product
                             cards (hosts with MCP Apps); hidden from shoppers by default
  -v, --version              Print the version and exit
  -h, --help                 Print this help and exit

Environment (set it in the host's "env" for the server):
  CATALOG_MCP_URL    MCP base address of the service (search_catalog)
  CATALOG_BASE_URL   REST base address of the service (search_websites, update_collection)
  CATALOG_API_KEY    your API key (search_websites, update_collection; optional for
                     search_catalog, which then runs anonymously)

Try it offline: \`npx @catalogkit/emulator\` starts a stand-in of the service and prints the
three CATALOG_* values to set (its demo key, its REST and MCP addresses).
`;
}

function isToolName(name: string): name is ServableTool {
  return SERVABLE.some((tool) => tool === name);
}

function usageError(message: string): CliCommand {
  return {
    kind: 'fail',
    text: `catalogkit-mcp: ${message}\nRun catalogkit-mcp --help for the options.\n`,
    exitCode: 2,
  };
}

/**
 * A value from the command line, quoted for an error message, or `(value not shown)` when it
 * may be a secret: a value pasted in the wrong place is often the API key, and a host shows
 * stderr in its logs. Only short plain words are echoed; the rest are named, not shown.
 */
function echoed(value: string, secrets: readonly string[]): string {
  // The service's keys start with ck_: one pasted here is hidden even when the environment
  // does not hold it.
  const keyLike = /^ck_/i.test(value);
  if (keyLike || isSecret(value, secrets) || !/^[A-Za-z0-9_.-]{1,40}$/.test(value)) {
    return '(value not shown)';
  }
  return JSON.stringify(value);
}

/** Whether `text` holds a secret, or a piece of one long enough to give part of it away. */
function isSecret(text: string, secrets: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return secrets.some((key) => {
    const secret = key.toLowerCase();
    return (
      secret.length > 0 && (lower.includes(secret) || (lower.length >= 8 && secret.includes(lower)))
    );
  });
}

function includeOf(value: string, secrets: readonly string[]): ServableTool[] | string {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !isToolName(name));
  if (unknown.length > 0) {
    return `unknown tool ${unknown.map((name) => echoed(name, secrets)).join(', ')} in --include; the tools are ${SERVABLE.join(', ')}`;
  }
  return names.filter(isToolName);
}

/** A port number 0..65535 written in plain digits, or undefined. */
function portOf(value: string): number | undefined {
  if (!/^\d{1,5}$/.test(value)) return undefined;
  const port = Number(value);
  return port <= 65_535 ? port : undefined;
}

/** A host name or IP address to bind (IPv6 with or without brackets), or undefined. */
function hostOf(value: string): string | undefined {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  const name = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(bare);
  const ipv6 = bare.includes(':') && /^[0-9A-Fa-f:.]{2,45}$/.test(bare);
  return name || ipv6 ? bare : undefined;
}

function buyLinksOf(value: string): BuyLinkMode | undefined {
  return value === 'inline' || value === 'reference' ? value : undefined;
}

/**
 * The one canonical form of a `--host` (the URL parser's: `0x7f.1` is `127.0.0.1`, `::0:1`
 * is `[::1]`) used to bind, to allow in `Host` and in the printed URL, or undefined when it
 * is not loopback: the tools spend the operator's key and change their data with no
 * authentication of their own, so only this machine may reach them.
 */
function loopbackHostOf(bare: string): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}`).hostname;
  } catch {
    return undefined;
  }
  const loopback =
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  return loopback ? hostname : undefined;
}

const NOT_LOOPBACK =
  '--host must be a loopback address (127.0.0.1, ::1 or localhost): the tools spend your API key and change your data without authentication of their own, so --http serves this machine only. To serve other machines, run it on loopback behind a reverse proxy that authenticates its clients, and mount createCatalogMcpHandler with allowedHosts naming the public host (see the README)';

function confirmChangesOf(value: string): ConfirmChanges | undefined {
  return value === 'elicit' || value === 'annotations-only' ? value : undefined;
}

/** An unknown option's name for the error: without its `=value`, and only if it is plain. */
function optionName(name: string, secrets: readonly string[]): string {
  const plain = /^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/.test(name);
  return plain && !isSecret(name, secrets) ? JSON.stringify(name) : '(an argument not shown)';
}

/** The options that take a value. */
const VALUE_OPTIONS = [
  '--include',
  '--confirm-changes',
  '--buy-links',
  '--port',
  '--host',
] as const;

/** Splits `--name=value` and `--name value` alike. */
function optionValue(args: readonly string[], index: number): [string, string | undefined, number] {
  const arg = args[index] ?? '';
  const equals = arg.indexOf('=');
  if (equals > 0) return [arg.slice(0, equals), arg.slice(equals + 1), index];
  return [arg, args[index + 1], index + 1];
}

/**
 * Reads the command line; configuration is checked separately ({@link missingConfiguration}).
 * `secrets` (the API key) are never echoed in an error, nor is any value that is not a plain
 * word: an unknown option is named without its `=value`.
 */
export function parseArgs(
  args: readonly string[],
  version: string,
  secrets: readonly string[] = [],
): CliCommand {
  let include: ServableTool[] | undefined;
  let confirmChanges: ConfirmChanges | undefined;
  let http = false;
  let port: number | undefined;
  let host: string | undefined;
  let buyLinks: BuyLinkMode | undefined;
  let showCommission = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '-h' || arg === '--help') return { kind: 'print', text: usage(version) };
    if (arg === '-v' || arg === '--version') return { kind: 'print', text: `${version}\n` };
    if (arg === '--http') {
      http = true;
      continue;
    }
    if (arg === '--show-commission') {
      showCommission = true;
      continue;
    }
    const [name, value, last] = optionValue(args, index);
    if (!VALUE_OPTIONS.some((option) => option === name)) {
      return usageError(`unknown option ${optionName(name, secrets)}`);
    }
    if (value === undefined) return usageError(`${name} needs a value`);
    index = last;
    if (name === '--port') {
      port = portOf(value);
      // Not echoed: a pasted key would land in the logs, and the rule is short.
      if (port === undefined) return usageError('--port must be a number from 0 to 65535');
    } else if (name === '--host') {
      const bare = isSecret(value, secrets) ? undefined : hostOf(value);
      if (bare === undefined) return usageError('--host must be a host name or an IP address');
      host = loopbackHostOf(bare);
      if (host === undefined) return usageError(NOT_LOOPBACK);
    } else if (name === '--include') {
      const tools = includeOf(value, secrets);
      if (typeof tools === 'string') return usageError(tools);
      include = tools;
    } else if (name === '--buy-links') {
      buyLinks = buyLinksOf(value);
      // The value is not shown, as for --confirm-changes.
      if (!buyLinks) return usageError('--buy-links must be reference or inline');
    } else {
      confirmChanges = confirmChangesOf(value);
      if (!confirmChanges) {
        return usageError(
          // The value is not shown: with two possible values it adds nothing, and a
          // pasted key would land in the host's logs.
          '--confirm-changes must be elicit or annotations-only',
        );
      }
    }
  }
  if (!http && (port !== undefined || host !== undefined)) {
    return usageError('--port and --host go with --http');
  }
  const listen = http
    ? { port: port ?? DEFAULT_HTTP_PORT, host: host ?? DEFAULT_HTTP_HOST }
    : undefined;
  return { kind: 'serve', include, confirmChanges, buyLinks, showCommission, http: listen };
}

/**
 * The variables the served tools need and the environment lacks, each with the tools that
 * need it, as one message; `undefined` when nothing is missing. An empty or blank variable
 * counts as missing, as it does for the client.
 */
export function missingConfiguration(
  include: readonly ServableTool[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const missing = new Map<EnvName, ServableTool[]>();
  for (const tool of include) {
    for (const name of NEEDS[tool]) {
      if (env[name]?.trim()) continue;
      missing.set(name, [...(missing.get(name) ?? []), tool]);
    }
  }
  if (missing.size === 0) return undefined;
  const lines = [...missing].map(([name, tools]) => `  ${name} (needed by ${tools.join(', ')})`);
  return `catalogkit-mcp: missing configuration:
${lines.join('\n')}
Set these in the environment the MCP host gives the server (its "env" entry)${include.includes('search_catalog') && !missing.has('CATALOG_MCP_URL') ? ', or serve only the catalog search with --include search_catalog' : ''}.
Run catalogkit-mcp --help for the details.
`;
}
