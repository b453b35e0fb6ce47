import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const EXAMPLE = new URL('../examples/pay-with-budget.ts', import.meta.url);
// tsx's CLI run by this Node, so the test needs no pnpm or shell on the PATH.
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');
/**
 * Only a guard against a hang: the child transpiles the sources with tsx, which took 32 s of
 * wall clock at load 30 on 2 cores; a run killed at 60 s failed CI on a busy machine.
 */
const CHILD_TIMEOUT_MS = 240_000;

describe('the README example', () => {
  it('is the README snippet, byte for byte', async () => {
    const [example, readme] = await Promise.all([
      readFile(EXAMPLE, 'utf8'),
      readFile(new URL('../README.md', import.meta.url), 'utf8'),
    ]);
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it(
    'pays two calls within its 50-cent budget, then stops paying',
    async () => {
      const { stdout } = await run(
        process.execPath,
        [TSX_CLI, '--conditions=@catalogkit/source', EXAMPLE.pathname],
        { cwd: new URL('..', import.meta.url).pathname, timeout: CHILD_TIMEOUT_MS },
      );
      const lines = stdout.trimEnd().split('\n');
      expect(lines).toEqual([
        '  approve 0.25 USD for this call? yes',
        expect.stringMatching(/^ {2}receipt pay_000001 \(success\)$/),
        expect.stringMatching(/^call 1: \d+ websites, 25 cents of budget left$/),
        '  approve 0.25 USD for this call? yes',
        expect.stringMatching(/^ {2}receipt pay_000002 \(success\)$/),
        expect.stringMatching(/^call 2: \d+ websites, 0 cents of budget left$/),
        'call 3: not paid (the budget is used up): payment_challenge',
      ]);
    },
    CHILD_TIMEOUT_MS + 30_000,
  );
});
