// Prints the token table of the README: `pnpm --filter @catalogkit/integration-tests bench:tokens`.
import { startEmulator } from '@catalogkit/emulator';
import { measureTokenTable, tokenTableMarkdown } from './token-table.js';

const emulator = await startEmulator({ port: 0, mcpResponse: 'json' });
try {
  process.stdout.write(`${tokenTableMarkdown(await measureTokenTable(emulator))}\n`);
} finally {
  await emulator.close();
}
