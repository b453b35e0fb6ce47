import { type LatencySummary, summarizeLatencies } from '../latency-stats.js';
import type { Contender, Scenario } from './contenders.js';

/** What was measured for one contender of one scenario. */
export interface WireCostRow extends LatencySummary {
  scenario: string;
  contender: Contender;
  /** Median of this contender ÷ median of raw fetch + JSON.parse in the same scenario. */
  ratioToRaw: number;
  /** Calls whose links differed from raw fetch's first answer. */
  linkMismatches: number;
}

interface Cell {
  scenario: string;
  contender: Contender;
  reference: string;
  latencies: number[];
  linkMismatches: number;
}

async function callOnce(cell: Cell, measured: boolean): Promise<void> {
  const start = performance.now();
  const links = await cell.contender.call();
  const elapsed = performance.now() - start;
  if (links.join('\n') !== cell.reference) cell.linkMismatches += 1;
  if (measured) cell.latencies.push(elapsed);
}

/** Every cell once per round, starting one cell later each round, so no order is favoured. */
async function rounds(cells: Cell[], count: number, measured: boolean): Promise<void> {
  for (let round = 0; round < count; round++) {
    for (let step = 0; step < cells.length; step++) {
      await callOnce(cells[(round + step) % cells.length] as Cell, measured);
    }
  }
}

async function cellsOf(scenario: Scenario): Promise<Cell[]> {
  const raw = scenario.contenders.find((contender) => contender.id === 'raw');
  if (!raw) throw new Error(`${scenario.name}: no raw contender to compare with`);
  const reference = (await raw.call()).join('\n');
  if (reference === '') throw new Error(`${scenario.name}: the raw answer has no links`);
  return scenario.contenders.map((contender) => ({
    scenario: scenario.name,
    contender,
    reference,
    latencies: [],
    linkMismatches: 0,
  }));
}

/** Warms up, then measures every contender of every scenario, interleaved. */
export async function measureWireCost(
  scenarios: Scenario[],
  plan: { calls: number; warmup: number },
): Promise<WireCostRow[]> {
  const cells = (await Promise.all(scenarios.map(cellsOf))).flat();
  await rounds(cells, plan.warmup, false);
  await rounds(cells, plan.calls, true);
  return cells.map((cell) => {
    const summary = summarizeLatencies(cell.latencies);
    const raw = cells.find(
      (other) => other.scenario === cell.scenario && other.contender.id === 'raw',
    );
    const rawMedian = summarizeLatencies(raw?.latencies ?? []).medianMs;
    return {
      ...summary,
      scenario: cell.scenario,
      contender: cell.contender,
      ratioToRaw: summary.medianMs / rawMedian,
      linkMismatches: cell.linkMismatches,
    };
  });
}

/** The rows as a Markdown table. */
export function wireCostTable(rows: WireCostRow[]): string {
  const us = (ms: number) => (ms * 1000).toFixed(0);
  return [
    '| call | contender | calls | median µs | p90 µs | median ÷ raw | same links as raw |',
    '|---|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${row.contender.label} | ${row.calls} | ${us(row.medianMs)} | ${us(row.p90Ms)} | ${row.ratioToRaw.toFixed(2)} | ${row.linkMismatches === 0 ? 'yes' : `**no** (${row.linkMismatches})`} |`,
    ),
  ].join('\n');
}
