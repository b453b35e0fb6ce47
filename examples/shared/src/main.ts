import { approverForCli } from './approvals.js';
import { parseCli } from './cli.js';
import { connectCatalog } from './connection.js';
import { loadDotEnv } from './dotenv.js';
import type { ModelDescription } from './events.js';
import { createPrinter, shouldUseColor } from './printer.js';
import type { ShoppingRunOptions } from './run.js';

/** One shopping run of an example, given everything but its model (the example picks it). */
export type ExampleRun = (
  options: Omit<ShoppingRunOptions<{ description: ModelDescription }>, 'model'>,
) => Promise<unknown>;

function isBrokenPipe(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EPIPE';
}

/**
 * The examples' command line (`pnpm demo`, `pnpm start [--yes] [request...]`): connects to
 * the emulator or the service, runs the agent once and prints every step. Errors go to
 * stderr with exit code 1.
 */
export async function runExampleCli(run: ExampleRun): Promise<void> {
  // `pnpm demo | head` closes the pipe early; that is the reader's choice, not a failure.
  process.stdout.on('error', (error) => {
    if (isBrokenPipe(error)) process.exit(0);
    throw error;
  });
  try {
    loadDotEnv();
    const cli = parseCli(process.argv.slice(2));
    const onEvent = createPrinter({
      write: (text) => process.stdout.write(text),
      color: shouldUseColor(process.stdout, process.env),
    });
    const connection = await connectCatalog();
    try {
      const approver = approverForCli({
        yes: cli.yes,
        stdin: process.stdin,
        stdout: process.stdout,
      });
      await run({ request: cli.request, connection, approver, onEvent });
    } finally {
      await connection.close();
    }
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
