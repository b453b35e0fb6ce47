// The CLI runs the agent in a child process (red-team M2, M3) and checks the command and the
// module before any scenario (L2, L4): an agent that ends the process or blocks it, or prints
// a fake table, cannot make the report pass or hang it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../src/run/command.js';
import { rows, runCli } from './support/cli.js';

let dir = '';
beforeAll(async () => {
  // Inside the package, so the agent's framework packages resolve as a project's would.
  dir = await mkdtemp(fileURLToPath(new URL('./.tmp-cli-', import.meta.url)));
  const files: Record<string, string> = {
    'exits.ts': `export default async function agent() {
  console.log('shopping-run | pass\\n\\n1 of 1 scenarios passed');
  process.exit(0);
}\n`,
    // Blocks the thread as a synchronous loop does, without spending a core for the 10.5 s.
    'busy.ts':
      'export default async function agent() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }\n',
    'syntax.ts': 'export default async function agent( { return {\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('catalogkit-testing check runs the agent in a child process', () => {
  // Each test starts tsx and a child: 53 s for this one at load 30 on 2 cores.
  it('an agent that calls process.exit(0) and prints a fake table fails', {
    timeout: 180_000,
  }, async () => {
    const { code, stdout } = await runCli([
      'check',
      join(dir, 'exits.ts'),
      '--scenario',
      'shopping-run',
    ]);
    expect(rows(stdout)).toEqual([['shopping-run', 'FAIL']]);
    expect(stdout).toContain('the agent ended the process during the scenario (exit code 0)');
    expect(stdout).toContain('0 of 1 scenarios passed');
    expect(code).toBe(1);
  });

  it('an agent that blocks the thread (a synchronous loop, a blocking wait) is stopped and fails', {
    timeout: 180_000,
  }, async () => {
    const { code, stdout } = await runCli([
      'check',
      join(dir, 'busy.ts'),
      '--scenario',
      'shopping-run',
      '--timeout',
      '500',
    ]);
    expect(rows(stdout)).toEqual([['shopping-run', 'FAIL']]);
    // Stopped at its --timeout plus the 10 s margin, not the 60 s default's 70 s (the deadline
    // is named rather than timed: the child's start-up alone took 8-12 s on a busy machine).
    expect(stdout).toMatch(/the agent blocked the process for over 10500 ms/);
    expect(code).toBe(1);
  });

  // Two CLI runs (each starts tsx and a child): a module that fails to load, either way.
  it('a module that does not load exits 2 naming it', { timeout: 240_000 }, async () => {
    const syntax = await runCli(['check', join(dir, 'syntax.ts')]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain(`could not load your agent module ${join(dir, 'syntax.ts')}`);
    const missing = await runCli(['check', join(dir, 'missing.ts')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`could not load your agent module ${join(dir, 'missing.ts')}`);
  });
});

describe('the command line', () => {
  // A UsageError is what the CLI prints and exits 2 on (one run in cli-reporters.test.ts).
  it('refuses a --timeout that is not a whole number of milliseconds in range', () => {
    for (const value of ['1e10', '0x10', '0', '-5', '2147483648']) {
      expect(() =>
        parseCommand(['check', 'test/fixtures/good-agent.ts', '--timeout', value]),
      ).toThrow(UsageError);
      expect(() =>
        parseCommand(['check', 'test/fixtures/good-agent.ts', '--timeout', value]),
      ).toThrow(
        `--timeout must be a whole number of milliseconds from 1 to 2147483647, got ${value}`,
      );
    }
    expect(parseCommand(['check', 'agent.ts', '--timeout', '2147483647']).timeoutMs).toBe(
      2 ** 31 - 1,
    );
  });
});
