// Prints the link corruption tables: `pnpm --filter @catalogkit/integration-tests bench:links`.
import { startEmulator } from '@catalogkit/emulator';
import { linkCorruptionMarkdown, measureLinkCorruption } from './measure.js';

const emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
try {
  process.stdout.write(`${linkCorruptionMarkdown(await measureLinkCorruption(emulator))}\n`);
} finally {
  await emulator.close();
}
