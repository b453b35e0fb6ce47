import { type LatencySummary, summarizeLatencies } from '../latency-stats.js';
import type { Contender, Scenario } from './contenders.js';

/** What was measured for one contender of one scenario. */
export interface WireCostRow extends LatencySummary {
  scenario: string;
  contender: Contender;
  /** Median of this contender ÷ median of raw fetch + JSON.parse in the same scenario. */
  ratioToRaw: number;
  /**
   * Median of this contender ÷ median of raw fetch + JSON.parse with a timeout signal: the
   * floor of any client that can be stopped, which the targets are set against.
   */
  ratioToFloor: number;
  /** Calls whose links differed from raw fetch's first answer. */
  linkMismatches: number;
  /**
   * Mean CPU time of this process per call (user + system, µs): the client's own work,
   * fetch and parsing included; the server runs in another process. Less disturbed by
   * other load on the machine than wall time.
   */
  cpuMicrosPerCall: number;
  /** cpuMicrosPerCall ÷ raw fetch's, in the same scenario. */
  cpuRatioToRaw: number;
}

interface Cell {
  scenario: string;
  contender: Contender;
  reference: string;
  latencies: number[];
  cpuMicros: number;
  linkMismatches: number;
}

async function callOnce(cell: Cell, measured: boolean): Promise<void> {
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const links = await cell.contender.call();
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  if (links.join('\n') !== cell.reference) cell.linkMismatches += 1;
  if (!measured) return;
  cell.latencies.push(elapsed);
  cell.cpuMicros += cpu.user + cpu.system;
}

/** A small seeded PRNG (mulberry32), so runs shuffle the same way. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Lets work a call left behind (a stream closing, timers) run before the next call starts. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Every cell once per round, in a fresh random order each round: work one call leaves
 * behind (the SDK reading the rest of a stream, garbage) lands on varying successors
 * instead of always on the same one.
 */
async function rounds(cells: Cell[], count: number, measured: boolean, random: () => number) {
  for (let round = 0; round < count; round++) {
    for (const cell of shuffled(cells, random)) {
      await settle();
      await callOnce(cell, measured);
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
    cpuMicros: 0,
    linkMismatches: 0,
  }));
}

/** Warms up, then measures every contender of every scenario, interleaved in random order. */
export async function measureWireCost(
  scenarios: Scenario[],
  plan: { calls: number; warmup: number },
): Promise<WireCostRow[]> {
  const cells = (await Promise.all(scenarios.map(cellsOf))).flat();
  const random = seededRandom(20261122);
  await rounds(cells, plan.warmup, false, random);
  await rounds(cells, plan.calls, true, random);
  return cells.map((cell) => {
    const summary = summarizeLatencies(cell.latencies);
    const find = (id: string) =>
      cells.find((other) => other.scenario === cell.scenario && other.contender.id === id);
    const raw = find('raw');
    const rawMedian = summarizeLatencies(raw?.latencies ?? []).medianMs;
    const floor = find('raw-timeout');
    const floorMedian = floor ? summarizeLatencies(floor.latencies).medianMs : Number.NaN;
    const cpuMicrosPerCall = cell.cpuMicros / cell.latencies.length;
    const rawCpu = (raw?.cpuMicros ?? 0) / (raw?.latencies.length ?? 1);
    return {
      ...summary,
      scenario: cell.scenario,
      contender: cell.contender,
      ratioToRaw: summary.medianMs / rawMedian,
      ratioToFloor: summary.medianMs / floorMedian,
      linkMismatches: cell.linkMismatches,
      cpuMicrosPerCall,
      cpuRatioToRaw: cpuMicrosPerCall / rawCpu,
    };
  });
}

/** The rows as a Markdown table. */
export function wireCostTable(rows: WireCostRow[]): string {
  const us = (ms: number) => (ms * 1000).toFixed(0);
  return [
    '| call | contender | calls | median µs | p90 µs | median ÷ raw | median ÷ floor | CPU µs / call | CPU ÷ raw | same links as raw |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${row.contender.label} | ${row.calls} | ${us(row.medianMs)} | ${us(row.p90Ms)} | ${row.ratioToRaw.toFixed(2)} | ${row.ratioToFloor.toFixed(2)} | ${row.cpuMicrosPerCall.toFixed(0)} | ${row.cpuRatioToRaw.toFixed(2)} | ${row.linkMismatches === 0 ? 'yes' : `**no** (${row.linkMismatches})`} |`,
    ),
  ].join('\n');
}
