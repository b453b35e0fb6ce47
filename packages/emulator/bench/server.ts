import { startEmulator } from '../src/index.js';

/**
 * The emulator under load, in its own process so the load generator does not share its
 * event loop. Rate limits are lifted: the benchmark measures serving, not refusing.
 */
const emulator = await startEmulator({
  seed: 42,
  mcpResponse: process.argv.includes('--json') ? 'json' : 'sse',
  rateLimits: {
    rest: Number.POSITIVE_INFINITY,
    mcpToken: Number.POSITIVE_INFINITY,
    mcpAnonymous: Number.POSITIVE_INFINITY,
  },
});
process.stdout.write(
  `${JSON.stringify({ baseUrl: emulator.baseUrl, mcpUrl: emulator.mcpUrl, key: emulator.keys.valid })}\n`,
);
process.once('SIGTERM', () => {
  void emulator.close().then(() => process.exit(0));
});
