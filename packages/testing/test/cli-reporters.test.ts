/*
 * The command line (`parseCommand`, what `catalogkit-testing` reads before it starts anything)
 * and the JUnit report's escaping. The reports' place on stdout and the exit codes 0 and 1
 * are proven by the runs in cli.test.ts; one run here proves a usage error exits 2.
 */
import { describe, expect, it } from 'vitest';
import { formatJUnitReport } from '../src/index.js';
import { parseCommand, USAGE, UsageError } from '../src/run/command.js';
import { runCli } from './support/cli.js';

describe('catalogkit-testing check: a wrong command', () => {
  it('exits 2 with the message alone on stderr (one run of the CLI)', {
    timeout: 120_000,
  }, async () => {
    const reporter = await runCli(['check', 'test/fixtures/good-agent.ts', '--reporter', 'tap']);
    expect([reporter.code, reporter.stdout, reporter.stderr]).toEqual([
      2,
      '',
      '--reporter must be one of table, junit, json, got tap\n',
    ]);
  });

  it('names a wrong reporter, link, scenario, or a missing command, as a UsageError', () => {
    const refusal = (args: string[]) => {
      try {
        parseCommand(args);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${args.join(' ')}`);
    };
    expect(refusal(['check', 'test/fixtures/good-agent.ts', '--reporter', 'tap'])).toBe(
      '--reporter must be one of table, junit, json, got tap',
    );
    expect(refusal(['check', 'test/fixtures/good-agent.ts', '--allow-link', 'help'])).toMatch(
      /^--allow-link: must be an http: or https: URL/,
    );
    expect(refusal(['check', 'test/fixtures/good-agent.ts', '--scenario', 'nope'])).toBe(
      'Unknown scenario nope',
    );
    expect(refusal([])).toBe(USAGE);
    expect(USAGE).toContain('Usage: catalogkit-testing check <agent module>');
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
