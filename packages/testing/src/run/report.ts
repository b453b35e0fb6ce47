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
