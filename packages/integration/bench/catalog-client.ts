import type { McpResponseMode, RunningEmulator } from '@catalogkit/emulator';
import type { Contender, ContenderId } from './catalog-client-contenders.js';
import { type LatencySummary, summarizeLatencies } from './latency-stats.js';

/** One contender against one emulator (SSE or JSON answers). */
export interface BenchTarget {
  mode: McpResponseMode;
  emulator: RunningEmulator;
  contenders: Contender[];
}

/** How much to measure; the run stops early at `budgetMs` and reports what it measured. */
export interface BenchPlan {
  calls: number;
  warmupCalls: number;
  budgetMs: number;
}

/** What was measured for one contender in one mode. */
export interface BenchRow extends LatencySummary {
  mode: McpResponseMode;
  id: ContenderId;
  label: string;
  /** HTTP requests the contender sent per measured call (its own fetch; GET included). */
  requestsPerCall: number;
  /** `POST /mcp` requests per measured call as the emulator counted them, per JSON-RPC method. */
  postsPerCallByMethod: Record<string, number>;
  /** Median of this contender / median of (a) in the same mode. */
  medianRatioToA: number;
  /** Calls (warm-up included) whose buy links differed from (a)'s first answer in this mode. */
  linkMismatches: number;
  /** Buy links in the reference answer (a)'s first call. */
  referenceLinks: string[];
}

interface Cell {
  target: BenchTarget;
  contender: Contender;
  latencies: number[];
  requestsSent: number;
  posts: Map<string, number>;
  linkMismatches: number;
  reference: string[];
}

const POST_METHOD_PREFIX = 'POST /mcp ';

/** Adds the per-method `POST /mcp` counts that grew between two stats snapshots. */
function addPostDiff(
  into: Map<string, number>,
  before: Record<string, number>,
  after: Record<string, number>,
) {
  for (const [route, count] of Object.entries(after)) {
    if (!route.startsWith(POST_METHOD_PREFIX)) continue;
    const grown = count - (before[route] ?? 0);
    const method = route.slice(POST_METHOD_PREFIX.length);
    if (grown > 0) into.set(method, (into.get(method) ?? 0) + grown);
  }
}

/** One call of one cell; only the awaited search is inside the timed span. */
async function callOnce(cell: Cell, measured: boolean): Promise<void> {
  const { contender, target } = cell;
  const sentBefore = contender.requestsSent;
  const statsBefore = target.emulator.stats.snapshot();
  const start = performance.now();
  const links = await contender.search();
  const elapsedMs = performance.now() - start;
  if (links.join('\n') !== cell.reference.join('\n')) cell.linkMismatches += 1;
  if (!measured) return;
  cell.latencies.push(elapsedMs);
  cell.requestsSent += contender.requestsSent - sentBefore;
  addPostDiff(cell.posts, statsBefore, target.emulator.stats.snapshot());
}

/**
 * Runs `rounds` rounds; each round calls every cell once, starting one cell later than
 * the previous round so no contender always follows the same one. Stops at `deadline`.
 */
async function roundRobin(cells: Cell[], rounds: number, measured: boolean, deadline: number) {
  for (let round = 0; round < rounds && performance.now() < deadline; round += 1) {
    for (let step = 0; step < cells.length; step += 1) {
      await callOnce(cells[(round + step) % cells.length] as Cell, measured);
    }
  }
}

function toRow(cell: Cell, medianOfA: number): BenchRow {
  const summary = summarizeLatencies(cell.latencies);
  const perCall = (count: number) => count / summary.calls;
  return {
    ...summary,
    mode: cell.target.mode,
    id: cell.contender.id,
    label: cell.contender.label,
    requestsPerCall: perCall(cell.requestsSent),
    postsPerCallByMethod: Object.fromEntries([...cell.posts].map(([m, n]) => [m, perCall(n)])),
    medianRatioToA: summary.medianMs / medianOfA,
    linkMismatches: cell.linkMismatches,
    referenceLinks: cell.reference,
  };
}

async function cellsOf(target: BenchTarget): Promise<Cell[]> {
  const [first] = target.contenders;
  if (first?.id !== 'a') throw new Error('contender (a) must come first: it is the reference');
  // (a)'s answer is the reference every call of every contender in this mode must match.
  const reference = await first.search();
  return target.contenders.map((contender) => ({
    target,
    contender,
    latencies: [],
    requestsSent: 0,
    posts: new Map(),
    linkMismatches: 0,
    reference,
  }));
}

/** Warms up, then measures every contender of every target, interleaved round-robin. */
export async function runCatalogClientBench(
  targets: BenchTarget[],
  plan: BenchPlan,
): Promise<BenchRow[]> {
  const deadline = performance.now() + plan.budgetMs;
  const cells = (await Promise.all(targets.map(cellsOf))).flat();
  await roundRobin(cells, plan.warmupCalls, false, deadline);
  await roundRobin(cells, plan.calls, true, deadline);
  if (cells.some((cell) => cell.latencies.length === 0)) {
    throw new Error(`nothing measured within the ${plan.budgetMs} ms budget`);
  }
  return cells.map((cell) => {
    const a = cells.find((other) => other.target === cell.target && other.contender.id === 'a');
    return toRow(cell, summarizeLatencies(a?.latencies ?? []).medianMs);
  });
}
