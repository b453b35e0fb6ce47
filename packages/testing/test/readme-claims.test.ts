/*
 * The README's claims, read from the README and checked against the kit: its scenario and
 * assertion tables, the CLI's options and exit codes as the CLI states them, and the GitHub
 * Actions snippet's command, run as written (the module swapped for a fixture).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as kit from '../src/index.js';
import { parseCommand, USAGE, UsageError } from '../src/run/command.js';
import { runCli } from './support/cli.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The first cells (in backticks) of the rows of the table under `heading`. */
function firstCells(heading: string): string[] {
  const section = readme.slice(readme.indexOf(heading));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('\n| ')));
  return [...table.matchAll(/^\| `([^`(]+)[^`]*` \|/gm)].map((match) => String(match[1]));
}

describe('the README tells the truth', () => {
  it('lists every scenario, in order', () => {
    expect(firstCells('## Scenarios')).toEqual(kit.SCENARIOS.map((scenario) => scenario.id));
  });

  it('lists every assertion the kit exports', () => {
    const exported = Object.keys(kit).filter((name) => name.startsWith('assert'));
    expect(firstCells('## Assertions').sort()).toEqual(exported.sort());
  });

  it('documents the options and exit codes the CLI states', () => {
    // What `catalogkit-testing` without a command prints on stderr, exiting 2 (a usage error
    // as a process: cli-reporters.test.ts).
    expect(() => parseCommand([])).toThrow(UsageError);
    const usage = { stderr: USAGE };
    const flags = (text: string) => [...new Set(text.match(/--[a-z-]+/g))].sort();
    expect(flags(firstCells('| option |').join(' '))).toEqual(flags(usage.stderr));
    expect(readme).toContain(
      '**Exit codes**: `0` every scenario passed; `1` a scenario failed; `2` the command or the\nmodule is wrong',
    );
    expect(usage.stderr).toContain(
      'Exit codes: 0 every scenario passed; 1 a scenario failed; 2 the command or the module is wrong.',
    );
  });

  it('the GitHub Actions snippet runs: JUnit XML on stdout, into the file the report reads', {
    timeout: 120_000,
  }, async () => {
    const yaml = readme.slice(
      readme.indexOf('```yaml'),
      readme.indexOf('```', readme.indexOf('```yaml') + 7),
    );
    const run = /- run: npx (\S+) (.+) > (\S+)\n/.exec(yaml);
    expect(run).not.toBeNull();
    const [, name, args, file] = run ?? [];
    // `npx <package>` runs the package's one bin.
    expect(name).toBe(packageJson.name);
    expect(Object.keys(packageJson.bin)).toHaveLength(1);
    expect(yaml).toContain(`report_paths: ${file}`);
    const [command, , ...options] = String(args).split(' ');
    const { code, stdout } = await runCli([
      String(command),
      'test/fixtures/good-agent.ts',
      ...options,
      '--scenario',
      'shopping-run',
    ]);
    expect(stdout).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(stdout).toMatch(/<testcase classname="catalogkit\.scenarios" name="shopping-run"/);
    expect(code).toBe(0);
  });
});
