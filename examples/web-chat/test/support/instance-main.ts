/**
 * The instance process of the two-instance tests: `src/dev/instance.ts` as `pnpm chat
 * --instances 2` runs it, with the tests' scripted model and, when a test steps the clock,
 * that clock (read from the file the test process rewrites before each request).
 */
import { readFileSync } from 'node:fs';
import { runInstanceProcess } from '../../src/dev/instance.js';
import { createScriptedModel } from '../../src/scripted-model.js';

const clockFile = process.env.WEBCHAT_TEST_CLOCK_FILE;
await runInstanceProcess({
  model: createScriptedModel({ wordDelayMs: 10 }),
  ...(clockFile ? { now: () => Number(readFileSync(clockFile, 'utf8')) } : {}),
});
