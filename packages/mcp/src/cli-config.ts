import {
  CATALOG_TOOL_NAMES,
  type CatalogToolName,
  type CatalogToolsOptions,
} from '@catalogkit/core/tools';
import type { ConfirmChanges } from './confirm.js';

type BuyLinkMode = NonNullable<CatalogToolsOptions['buyLinks']>;

/** What the command line asks for: run the server with options, or print and exit. */
export type CliCommand =
  | {
      kind: 'serve';
      include: CatalogToolName[];
      confirmChanges: ConfirmChanges | undefined;
      buyLinks: BuyLinkMode | undefined;
    }
  | { kind: 'print'; text: string }
  | { kind: 'fail'; text: string; exitCode: number };

type EnvName = 'CATALOG_API_KEY' | 'CATALOG_BASE_URL' | 'CATALOG_MCP_URL';

/** The variables each tool cannot run without. */
const NEEDS: Readonly<Record<CatalogToolName, readonly EnvName[]>> = {
  search_catalog: ['CATALOG_MCP_URL'],
  search_websites: ['CATALOG_BASE_URL', 'CATALOG_API_KEY'],
  update_collection: ['CATALOG_BASE_URL', 'CATALOG_API_KEY'],
};

/** The usage text of `catalogkit-mcp --help`. */
export function usage(version: string): string {
  return `catalogkit-mcp ${version}: the catalog tools as an MCP server over stdio.
MCP hosts (Claude Desktop, Cursor, VS Code, ...) start it themselves; run by hand it waits
for a host on stdin.

Usage: catalogkit-mcp [options]

Options:
  --include <tools>          Comma-separated tools to serve (default: all):
                             ${CATALOG_TOOL_NAMES.join(', ')}
  --confirm-changes <mode>   elicit (default): ask the user through the host before
                             update_collection runs, where the host supports elicitation;
                             annotations-only: leave it to the host's own approval
  --buy-links <mode>         reference (default): the model reads [[buy:123456789]], never
                             a URL; the exact links are in each result's structuredContent
                             for the host to resolve or render; inline: the model reads the
                             links, for hosts that show its text as written
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

function isToolName(name: string): name is CatalogToolName {
  return CATALOG_TOOL_NAMES.some((tool) => tool === name);
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

function includeOf(value: string, secrets: readonly string[]): CatalogToolName[] | string {
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !isToolName(name));
  if (unknown.length > 0) {
    return `unknown tool ${unknown.map((name) => echoed(name, secrets)).join(', ')} in --include; the tools are ${CATALOG_TOOL_NAMES.join(', ')}`;
  }
  return names.filter(isToolName);
}

function buyLinksOf(value: string): BuyLinkMode | undefined {
  return value === 'inline' || value === 'reference' ? value : undefined;
}

const OPTIONS = ['--include', '--confirm-changes', '--buy-links'];

function confirmChangesOf(value: string): ConfirmChanges | undefined {
  return value === 'elicit' || value === 'annotations-only' ? value : undefined;
}

/** An unknown option's name for the error: without its `=value`, and only if it is plain. */
function optionName(name: string, secrets: readonly string[]): string {
  const plain = /^--?[A-Za-z0-9][A-Za-z0-9-]{0,40}$/.test(name);
  return plain && !isSecret(name, secrets) ? JSON.stringify(name) : '(an argument not shown)';
}

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
  let include: CatalogToolName[] = [...CATALOG_TOOL_NAMES];
  let confirmChanges: ConfirmChanges | undefined;
  let buyLinks: BuyLinkMode | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '-h' || arg === '--help') return { kind: 'print', text: usage(version) };
    if (arg === '-v' || arg === '--version') return { kind: 'print', text: `${version}\n` };
    const [name, value, last] = optionValue(args, index);
    if (!OPTIONS.includes(name)) {
      return usageError(`unknown option ${optionName(name, secrets)}`);
    }
    if (value === undefined) return usageError(`${name} needs a value`);
    index = last;
    if (name === '--include') {
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
  return { kind: 'serve', include, confirmChanges, buyLinks };
}

/**
 * The variables the served tools need and the environment lacks, each with the tools that
 * need it, as one message; `undefined` when nothing is missing. An empty or blank variable
 * counts as missing, as it does for the client.
 */
export function missingConfiguration(
  include: readonly CatalogToolName[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const missing = new Map<EnvName, CatalogToolName[]>();
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
