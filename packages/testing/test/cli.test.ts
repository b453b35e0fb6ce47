/*
 * `catalogkit-testing check` as a process: the report on stdout (a table by default, JUnit
 * XML or JSON with --reporter, the table then on stderr for people reading the job's log),
 * and the exit codes the README documents (0 passed, 1 a scenario failed, 2 the command or
 * the module is wrong). Each run starts tsx and a child process, so one run per behaviour:
 * the command line's rules are tested directly in cli-reporters.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SCENARIOS, type ScenarioResult } from '../src/index.js';
import { rows, runCli } from './support/cli.js';

describe('catalogkit-testing check', () => {
  it('exits 0 for a well-behaved agent: every scenario passes, --reporter json on stdout', {
    timeout: 180_000,
  }, async () => {
    const { code, stdout, stderr } = await runCli([
      'check',
      'test/fixtures/good-agent.ts',
      '--reporter',
      'json',
    ]);
    expect(stderr).toContain(`good-agent.ts (ai-sdk), ${SCENARIOS.length} scenarios`);
    // The table goes to stderr beside a machine format.
    expect(rows(stderr)).toEqual(SCENARIOS.map((scenario) => [scenario.id, 'pass']));
    expect(stderr).toContain(`${SCENARIOS.length} of ${SCENARIOS.length} scenarios passed`);
    const report = JSON.parse(stdout) as {
      passed: boolean;
      total: number;
      scenarios: ScenarioResult[];
    };
    expect(report).toMatchObject({ passed: true, total: SCENARIOS.length, failed: 0 });
    expect(report.scenarios.map((s) => [s.id, s.passed, s.problems])).toEqual(
      SCENARIOS.map((scenario) => [scenario.id, true, []]),
    );
    expect(code).toBe(0);
  });

  it('exits 1 and says what went wrong for an agent that shows the model’s text as is: --reporter junit', {
    timeout: 180_000,
  }, async () => {
    const { code, stdout, stderr } = await runCli([
      'check',
      'test/fixtures/bad-agent.ts',
      '--reporter',
      'junit',
    ]);
    expect(code).toBe(1);
    const failed = rows(stderr)
      .filter(([, result]) => result === 'FAIL')
      .map(([id]) => id);
    // With references by default, the model's text as is shows `[[buy:…]]` in every answer
    // that has a product, so more scenarios fail than the three its other mistakes touch.
    expect(failed).toEqual(
      expect.arrayContaining(['update-outcome-unknown', 'link-copied-wrong', 'change-denied']),
    );
    expect(stderr).toMatch(/\nlink-copied-wrong +\| FAIL +\| /);
    expect(stderr).toMatch(
      /\nupdate-outcome-unknown +\| FAIL +\| the update never reached the service/,
    );
    expect(stderr).toContain(
      `${SCENARIOS.length - failed.length} of ${SCENARIOS.length} scenarios passed`,
    );
    // JUnit on stdout: one testcase per scenario, a failure naming what went wrong.
    expect(stdout).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(stdout).toContain(
      `<testsuite name="catalogkit scenarios: test/fixtures/bad-agent.ts" tests="${SCENARIOS.length}" failures="${failed.length}" errors="0" skipped="0" time="`,
    );
    expect(stdout).toMatch(
      /<testcase classname="catalogkit\.scenarios" name="link-copied-wrong" time="[\d.]+">\n {6}<failure message="[^"]*(is not a buy link the catalog gave|is shown where its buy link belongs)/,
    );
    expect(stdout.match(/<testcase /g)).toHaveLength(SCENARIOS.length);
    expect(stdout.trimEnd().endsWith('</testsuites>')).toBe(true);
  });

  it('gives a LangChain agent (export const framework) a ChatOpenAI and LangChain tools; the table on stdout', {
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
    expect(stdout).toMatch(/^scenario +\| result \| what went wrong\n/);
    expect(rows(stdout)).toEqual([
      ['shopping-run', 'pass'],
      ['update-outcome-unknown', 'pass'],
    ]);
    expect(stdout).toContain('2 of 2 scenarios passed');
    expect(code).toBe(0);
  });

  it('exits 2 on a module without an agent', { timeout: 120_000 }, async () => {
    const notAgent = await runCli(['check', 'test/fixtures/not-an-agent.ts']);
    expect(notAgent.code).toBe(2);
    expect(notAgent.stderr).toContain('not-an-agent.ts has no default export function');
  });
});
