import { parseArgs } from 'node:util';
import { DEFAULT_SHOPPING_REQUEST } from '../shopper/request.js';

/** What an example's command line asks for. */
export interface CliOptions {
  /** The shopping request: the positional words, or the demo's request. */
  request: string;
  /** Approve changes to the user's data in advance. */
  yes: boolean;
}

/** Parses `[--yes] [request words...]`; unknown flags are an error naming the flag. */
export function parseCli(argv: readonly string[]): CliOptions {
  // `pnpm start -- --yes` passes the "--" on; npm habits should not turn --yes into words.
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  const { values, positionals } = parseArgs({
    args,
    options: { yes: { type: 'boolean', short: 'y', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const request = positionals.join(' ').trim();
  return { request: request || DEFAULT_SHOPPING_REQUEST, yes: values.yes === true };
}
