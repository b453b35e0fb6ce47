import { createPrinter, shouldUseColor } from '../printing/printer.js';
import type { DemoRunOptions } from '../printing/run-log.js';
import { approverForCli } from './approvals.js';
import { parseCli } from './arguments.js';
import { connectCatalog } from './connection.js';
import { loadDotEnv } from './dotenv.js';

/** One demo run of an example (it picks its model). */
export type ExampleRun = (options: DemoRunOptions) => Promise<unknown>;

function isBrokenPipe(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EPIPE';
}

/**
 * The examples' command line (`pnpm demo`, `pnpm start [--yes] [request...]`): loads `.env`,
 * connects to the emulator or the service, runs the agent once and prints every step.
 * Errors go to stderr with exit code 1. `loadRun` imports the example only after `.env` is
 * loaded, because model providers may read their settings when imported (`@ai-sdk/openai`
 * reads OPENAI_BASE_URL then).
 */
export async function runExampleCli(loadRun: () => Promise<ExampleRun>): Promise<void> {
  // `pnpm demo | head` closes the pipe early; that is the reader's choice, not a failure.
  process.stdout.on('error', (error) => {
    if (isBrokenPipe(error)) process.exit(0);
    throw error;
  });
  try {
    loadDotEnv();
    const run = await loadRun();
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
