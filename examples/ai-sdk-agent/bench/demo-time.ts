/**
 * Measures `pnpm demo` as a user runs it from the repository root: a fresh process each
 * time (pnpm, tsx start-up, emulator start, the agent run, shutdown). Prints the median and
 * the slowest run, and the median's share of the 15-second budget. Bounded: at most the
 * given number of runs (default 5) and 120 s in all.
 *
 *   pnpm --filter @catalogkit/example-ai-sdk-agent bench [runs]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BUDGET_MS = 15_000;
const TOTAL_LIMIT_MS = 120_000;
const runs = Number(process.argv[2] ?? 5);
// From the repository root, as the README says: this includes the root script's pnpm hop.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const env = { ...process.env };
for (const name of Object.keys(env)) if (/^(CATALOG_|OPENAI_)/.test(name)) delete env[name];

function timeOneRun(): number {
  const started = performance.now();
  const result = spawnSync('pnpm', ['--silent', 'demo'], {
    cwd: repoRoot,
    env,
    stdio: 'ignore',
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(`pnpm demo exited with ${result.status ?? result.signal}`);
  return performance.now() - started;
}

const times: number[] = [];
const benchStarted = performance.now();
while (times.length < runs && performance.now() - benchStarted < TOTAL_LIMIT_MS)
  times.push(timeOneRun());
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
const slowest = times.at(-1) ?? Number.NaN;
process.stdout.write(
  `pnpm demo, ${times.length} runs: median ${(median / 1000).toFixed(2)} s, slowest ${(slowest / 1000).toFixed(2)} s, ` +
    `median / 15 s budget = ${(median / BUDGET_MS).toFixed(2)}\n`,
);
