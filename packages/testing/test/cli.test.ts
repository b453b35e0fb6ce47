import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../src/index.js';
import { rows, runCli } from './support/cli.js';

describe('catalogkit-testing check', () => {
  it('exits 0 and prints the table for a well-behaved agent', { timeout: 120_000 }, async () => {
    const { code, stdout, stderr } = await runCli(['check', 'test/fixtures/good-agent.ts']);
    expect(stderr).toContain(`good-agent.ts (ai-sdk), ${SCENARIOS.length} scenarios`);
    expect(stdout).toMatch(/^scenario +\| result \| what went wrong\n/);
    expect(rows(stdout)).toEqual(SCENARIOS.map((scenario) => [scenario.id, 'pass']));
    expect(stdout).toContain(`${SCENARIOS.length} of ${SCENARIOS.length} scenarios passed`);
    expect(code).toBe(0);
  });

  it('exits 1 and says what went wrong for an agent that shows the model’s text as is', {
    timeout: 120_000,
  }, async () => {
    const { code, stdout } = await runCli(['check', 'test/fixtures/bad-agent.ts']);
    expect(code).toBe(1);
    const failed = rows(stdout)
      .filter(([, result]) => result === 'FAIL')
      .map(([id]) => id);
    // With references by default, the model's text as is shows `[[buy:…]]` in every answer
    // that has a product, so more scenarios fail than the three its other mistakes touch.
    expect(failed).toEqual(
      expect.arrayContaining(['update-outcome-unknown', 'link-copied-wrong', 'change-denied']),
    );
    expect(stdout).toMatch(/\nlink-copied-wrong +\| FAIL +\| /);
    expect(stdout).toMatch(
      /\nupdate-outcome-unknown +\| FAIL +\| the update never reached the service/,
    );
    expect(stdout).toContain(
      `${SCENARIOS.length - failed.length} of ${SCENARIOS.length} scenarios passed`,
    );
  });

  it('gives a LangChain agent (export const framework) a ChatOpenAI and LangChain tools', {
    timeout: 120_000,
  }, async () => {
    const { code, stdout, stderr } = await runCli([
      'check',
      'test/fixtures/langchain-agent.ts',
      '--scenario',
      'shopping-run',
      '--scenario',
      'update-outcome-unknown',
    ]);
    expect(stderr).toContain('(langchain), 2 scenarios');
    expect(rows(stdout)).toEqual([
      ['shopping-run', 'pass'],
      ['update-outcome-unknown', 'pass'],
    ]);
    expect(code).toBe(0);
  });

  it('exits 2 on a wrong command or module', async () => {
    const usage = await runCli([]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: catalogkit-testing check <agent module>');
    const notAgent = await runCli(['check', 'test/fixtures/not-an-agent.ts']);
    expect(notAgent.code).toBe(2);
    expect(notAgent.stderr).toContain('not-an-agent.ts has no default export function');
    const unknown = await runCli(['check', 'test/fixtures/good-agent.ts', '--scenario', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown scenario nope');
  });
});
