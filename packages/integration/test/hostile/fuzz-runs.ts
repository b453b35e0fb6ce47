/**
 * How many generated cases a property runs: a few in `pnpm test` (bounded time), many in
 * `pnpm fuzz` (which sets CATALOGKIT_FUZZ_RUNS, e.g. `CATALOGKIT_FUZZ_RUNS=2000 pnpm fuzz`).
 */
export function fuzzRuns(inTests: number): number {
  const fromEnv = Number(process.env.CATALOGKIT_FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : inTests;
}
