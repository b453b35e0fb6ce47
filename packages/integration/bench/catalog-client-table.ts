import type { BenchRow } from './catalog-client.js';

/** The machine a run was measured on, printed beside its numbers. */
export interface MachineInfo {
  cores: number;
  cpuModel: string;
  nodeVersion: string;
  /** 1, 5 and 15 minute load averages at the start and at the end of the run. */
  loadAverageBefore: number[];
  loadAverageAfter: number[];
}

const ms = (value: number) => value.toFixed(2);
const perCall = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

function methodsCell(byMethod: Record<string, number>): string {
  return Object.entries(byMethod)
    .map(([method, count]) => `${method} ×${perCall(count)}`)
    .join(', ');
}

function rowLine(row: BenchRow): string {
  const links = row.linkMismatches === 0 ? 'yes' : `**no** (${row.linkMismatches} differ)`;
  return `| ${row.mode} | (${row.id}) ${row.label} | ${row.calls} | ${ms(row.medianMs)} | ${ms(row.p90Ms)} | ${row.medianRatioToA.toFixed(2)} | ${perCall(row.requestsPerCall)} | ${methodsCell(row.postsPerCallByMethod)} | ${links} |`;
}

/** The rows as a Markdown table, one line per contender and MCP answer mode. */
export function benchTableMarkdown(rows: BenchRow[]): string {
  return [
    '| MCP answer | contender | calls | median ms | p90 ms | median ÷ (a) | HTTP requests / call | POST /mcp per call (emulator stats) | same buy links as (a) |',
    '|---|---|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(rowLine),
  ].join('\n');
}

/** The correctness guard: every contender got (a)'s buy links byte for byte, in both modes. */
export function buyLinkGuard(rows: BenchRow[]): { ok: boolean; text: string } {
  const mismatches = rows.reduce((sum, row) => sum + row.linkMismatches, 0);
  const references = new Set(rows.map((row) => row.referenceLinks.join('\n')));
  const count = rows[0]?.referenceLinks.length ?? 0;
  const ok = mismatches === 0 && references.size === 1 && count > 0;
  const text = ok
    ? `Buy links: every call of every contender (warm-up included) returned the same ${count} buy links, byte for byte, in SSE and JSON mode.`
    : `Buy links DIFFER: ${mismatches} calls differed from (a); ${references.size} distinct reference lists across modes; ${count} links in the first.`;
  return { ok, text };
}

/** One line describing the machine and its load. */
export function machineLine(machine: MachineInfo): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  return `Machine: ${machine.cores} cores (${machine.cpuModel}), Node ${machine.nodeVersion}; load average (1/5/15 min) ${load(machine.loadAverageBefore)} before, ${load(machine.loadAverageAfter)} after.`;
}
