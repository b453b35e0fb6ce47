/** Latency summary of one contender's measured calls, in milliseconds. */
export interface LatencySummary {
  calls: number;
  medianMs: number;
  p90Ms: number;
}

/** The value at quantile `q` (0..1) by the nearest-rank method: a latency that was observed. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] as number;
}

/** The median (mean of the middle two for an even count) and the nearest-rank p90. */
export function summarizeLatencies(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const medianMs =
    sorted.length % 2
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { calls: values.length, medianMs, p90Ms: quantile(sorted, 0.9) };
}
