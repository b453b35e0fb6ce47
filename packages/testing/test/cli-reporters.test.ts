/*
 * `--reporter junit|json`: the report CI reads, on stdout, with the exit codes the README
 * documents (0 passed, 1 a scenario failed, 2 the command is wrong).
 */
import { describe, expect, it } from 'vitest';
import { formatJUnitReport, type ScenarioResult } from '../src/index.js';
import { runCli } from './support/cli.js';

const TWO = ['--scenario', 'shopping-run', '--scenario', 'link-copied-wrong'];

describe('catalogkit-testing check --reporter', () => {
  it('junit: one testcase per scenario, a failure naming what went wrong, exit 1', {
    timeout: 120_000,
  }, async () => {
    const { code, stdout, stderr } = await runCli([
      'check',
      'test/fixtures/bad-agent.ts',
      ...TWO,
      '--reporter',
      'junit',
    ]);
    expect(stdout).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(stdout).toMatch(
      /<testsuite name="catalogkit scenarios: test\/fixtures\/bad-agent\.ts" tests="2" failures="2" errors="0" skipped="0" time="[\d.]+">/,
    );
    // The agent shows the model's text as is: with references by default, every answer that
    // names a product shows `[[buy:…]]` where its link belongs.
    expect(stdout).toMatch(
      /<testcase classname="catalogkit\.scenarios" name="link-copied-wrong" time="[\d.]+">\n {6}<failure message="[^"]*(is not a buy link the catalog gave|is shown where its buy link belongs)/,
    );
    expect(stdout.trimEnd().endsWith('</testsuites>')).toBe(true);
    // The table, for people reading the job's log, goes to stderr.
    expect(stderr).toContain('0 of 2 scenarios passed');
    expect(code).toBe(1);
  });

  it('json: every result, exit 0 when all pass', { timeout: 120_000 }, async () => {
    const { code, stdout } = await runCli([
      'check',
      'test/fixtures/good-agent.ts',
      '--scenario',
      'shopping-run',
      '--reporter',
      'json',
    ]);
    const report = JSON.parse(stdout) as {
      passed: boolean;
      total: number;
      scenarios: ScenarioResult[];
    };
    expect(report).toMatchObject({ passed: true, total: 1, failed: 0 });
    expect(report.scenarios.map((s) => [s.id, s.passed, s.problems])).toEqual([
      ['shopping-run', true, []],
    ]);
    expect(code).toBe(0);
  });

  it('exits 2 naming a wrong reporter or link', async () => {
    const reporter = await runCli(['check', 'test/fixtures/good-agent.ts', '--reporter', 'tap']);
    expect([reporter.code, reporter.stderr]).toEqual([
      2,
      '--reporter must be one of table, junit, json, got tap\n',
    ]);
    const link = await runCli(['check', 'test/fixtures/good-agent.ts', '--allow-link', 'help']);
    expect(link.code).toBe(2);
    expect(link.stderr).toMatch(/^--allow-link: must be an http: or https: URL/);
  });
});

describe('formatJUnitReport', () => {
  it('escapes markup and drops what XML cannot hold', () => {
    const xml = formatJUnitReport(
      [
        {
          id: 'x<y',
          title: 't',
          passed: false,
          problems: ['"a" & <b> \u0000\u001b \ud800 done'],
          durationMs: 1500,
        },
      ],
      'suite & "name"',
    );
    expect(xml).toContain('<testsuite name="suite &amp; &quot;name&quot;" tests="1" failures="1"');
    expect(xml).toContain('<testcase classname="catalogkit.scenarios" name="x&lt;y" time="1.500">');
    expect(xml).toContain(
      'message="&quot;a&quot; &amp; &lt;b&gt; \ufffd\ufffd \ufffd done" type="ScenarioFailed">- &quot;a&quot;',
    );
    expect([...xml].filter((char) => char < ' ' && char !== '\n')).toEqual([]);
  });
});
