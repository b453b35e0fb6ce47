#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { DEFAULT_SEED } from './data/index.js';
import { type RunningEmulator, startEmulator } from './start.js';

const USAGE = `Usage: catalogkit-emulator [--port 8787] [--host 127.0.0.1] [--seed 42] [--json]
                          [--no-lookup-tools]

  --port   port to listen on (0 picks a free one; default 8787)
  --host   interface to listen on (default 127.0.0.1)
  --seed   seed of the generated catalog (default ${DEFAULT_SEED})
  --json   MCP answers plain JSON instead of SSE
  --no-lookup-tools  serve search_catalog only (no lookup_catalog, get_product)
  --help   show this help
`;

function integerOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value))
    throw new Error(`--${name} must be a non-negative integer, got '${value}'`);
  return Number(value);
}

function banner(emulator: RunningEmulator, seed: number, json: boolean, lookup: boolean): string {
  const { keys } = emulator;
  const tools = lookup ? 'search_catalog, lookup_catalog, get_product' : 'search_catalog only';
  return `catalogkit emulator listening (seed ${seed}, MCP answers ${json ? 'JSON' : 'SSE'}; ${tools})
  REST base URL  ${emulator.baseUrl}    e.g. GET ${emulator.baseUrl}/v1/websites/search?query=fell
  MCP base URL   ${emulator.mcpUrl}    endpoint POST ${emulator.mcpUrl}/mcp

Demo keys (x-api-key):
  valid             ${keys.valid}
  otherUser         ${keys.otherUser}
  creditsExhausted  ${keys.creditsExhausted}   (402, asks for a payment method)
  paymentRequired   ${keys.paymentRequired}   (402 Payment challenges; pay the "test" one)
  invalid           ${keys.invalid}   (401)

For the client and the demo:
  export CATALOG_BASE_URL=${emulator.baseUrl}
  export CATALOG_MCP_URL=${emulator.mcpUrl}
  export CATALOG_API_KEY=${keys.valid}
`;
}

async function main(): Promise<void> {
  // `pnpm start -- --port 1` passes the separator through; it is not an argument.
  const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-lookup-tools': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const seed = integerOption('seed', values.seed, DEFAULT_SEED);
  const json = values.json === true;
  const lookupTools = values['no-lookup-tools'] !== true;
  const emulator = await startEmulator({
    port: integerOption('port', values.port, 8787),
    host: values.host ?? '127.0.0.1',
    seed,
    mcpResponse: json ? 'json' : 'sse',
    lookupTools,
  });
  process.stdout.write(banner(emulator, seed, json, lookupTools));
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(1);
});
