import type { ScenarioResult } from '../scenarios/types.js';

const HEADERS = ['scenario', 'result', 'what went wrong'] as const;

/** One line of the table; the row of a passed scenario ends at its result. */
function row(cells: readonly string[], widths: readonly number[]): string {
  const shown = cells.at(-1) === '' ? cells.slice(0, -1) : cells;
  return shown
    .map((cell, i) =>
      i < cells.length - 1 && i < shown.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell,
    )
    .join(' | ');
}

/**
 * The report table: one line per scenario (its id, `pass` or `FAIL`, and what went wrong),
 * then a summary line.
 *
 * @example
 * process.stdout.write(formatReport(await runScenarios(agent)));
 */
export function formatReport(results: readonly ScenarioResult[]): string {
  const rows = results.map((result) => [
    result.id,
    result.passed ? 'pass' : 'FAIL',
    result.problems.join('; '),
  ]);
  // The last column is not padded: its rule is as long as its header.
  const widths = HEADERS.map((header, i) =>
    i === HEADERS.length - 1
      ? header.length
      : Math.max(header.length, ...rows.map((cells) => cells[i]?.length ?? 0)),
  );
  const failed = results.filter((result) => !result.passed).length;
  return [
    row(HEADERS, widths),
    row(
      widths.map((width) => '-'.repeat(width)),
      widths,
    ),
    ...rows.map((cells) => row(cells, widths)),
    '',
    `${results.length - failed} of ${results.length} scenarios passed`,
    '',
  ].join('\n');
}

/** The report formats of the CLI's `--reporter`. */
export type ReporterName = 'table' | 'junit' | 'json';

/** Whether XML 1.0 can hold the code point (no control characters, lone surrogates, U+FFFE/F). */
function xmlChar(code: number): boolean {
  if (code === 0x9 || code === 0xa || code === 0xd) return true;
  return (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text as XML character data or an attribute value: escaped, what XML cannot hold as U+FFFD. */
function xml(text: string): string {
  let out = '';
  for (const char of text) {
    out += xmlChar(char.codePointAt(0) ?? 0) ? (ESCAPES[char] ?? char) : '\ufffd';
  }
  return out;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testCase(result: ScenarioResult): string {
  const open = `    <testcase classname="catalogkit.scenarios" name="${xml(result.id)}" time="${seconds(result.durationMs)}"`;
  if (result.passed) return `${open}/>`;
  const message = xml(result.problems[0] ?? 'failed');
  const body = xml(result.problems.map((problem) => `- ${problem}`).join('\n'));
  return `${open}>\n      <failure message="${message}" type="ScenarioFailed">${body}</failure>\n    </testcase>`;
}

/**
 * The results as JUnit XML (one `testsuite`, one `testcase` per scenario, a `failure` listing
 * what went wrong), the format GitHub Actions reporters, GitLab (`artifacts:reports:junit`)
 * and Jenkins (`junit`) read. `suite` names the suite (the agent module, say).
 */
export function formatJUnitReport(
  results: readonly ScenarioResult[],
  suite = 'catalogkit',
): string {
  const failures = results.filter((result) => !result.passed).length;
  const time = seconds(results.reduce((total, result) => total + result.durationMs, 0));
  const counts = `tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="catalogkit-testing" ${counts}>`,
    `  <testsuite name="${xml(suite)}" ${counts}>`,
    ...results.map(testCase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The results as one JSON document: `{ passed, total, failed, scenarios }`. */
export function formatJsonReport(results: readonly ScenarioResult[]): string {
  const failed = results.filter((result) => !result.passed).length;
  const report = { passed: failed === 0, total: results.length, failed, scenarios: results };
  return `${JSON.stringify(report, null, 2)}\n`;
}
