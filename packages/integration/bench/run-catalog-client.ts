// Side-by-side latency of catalog search: `pnpm --filter @catalogkit/integration-tests bench:client`
// (options: --calls 300 --warmup 20 --budget-seconds 50).
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { type McpResponseMode, type RunningEmulator, startEmulator } from '@catalogkit/emulator';
import { type BenchTarget, runCatalogClientBench } from './catalog-client.js';
import { BENCH_QUERY, createContenders } from './catalog-client-contenders.js';
import {
  benchTableMarkdown,
  buyLinkGuard,
  type MachineInfo,
  machineLine,
} from './catalog-client-table.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '20' },
    'budget-seconds': { type: 'string', default: '50' },
  },
});
const plan = {
  calls: positiveInteger('calls', values.calls),
  warmupCalls: positiveInteger('warmup', values.warmup),
  budgetMs: positiveInteger('budget-seconds', values['budget-seconds']) * 1000,
};

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`--${name} must be a positive integer, got "${text}"`);
  }
  return value;
}

// Far above what the run can spend, so no call meets a 429 (only tools/call spends quota).
const RATE_LIMITS = { rest: 1e9, mcpToken: 1e9, mcpAnonymous: 1e9 };

const machineBefore = loadavg();
const emulators: RunningEmulator[] = [];
const targets: BenchTarget[] = [];
try {
  for (const mode of ['sse', 'json'] as McpResponseMode[]) {
    const emulator = await startEmulator({ port: 0, mcpResponse: mode, rateLimits: RATE_LIMITS });
    emulators.push(emulator);
    targets.push({ mode, emulator, contenders: await createContenders(emulator) });
  }
  const rows = await runCatalogClientBench(targets, plan);
  const machine: MachineInfo = {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
    nodeVersion: process.version,
    loadAverageBefore: machineBefore,
    loadAverageAfter: loadavg(),
  };
  const guard = buyLinkGuard(rows);
  process.stdout.write(
    [
      `Query: ${JSON.stringify(BENCH_QUERY)} with a valid key; ${plan.warmupCalls} warm-up rounds, contenders interleaved round-robin.`,
      '',
      benchTableMarkdown(rows),
      '',
      guard.text,
      machineLine(machine),
      '',
    ].join('\n'),
  );
  if (!guard.ok) process.exitCode = 1;
} finally {
  for (const target of targets) for (const contender of target.contenders) await contender.close();
  for (const emulator of emulators) await emulator.close();
}
