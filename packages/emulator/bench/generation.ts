import { generateCatalogData } from '../src/data/index.js';

/** Median time to generate the catalog for one seed (what every test process pays once). */
export function medianGenerationMs(runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startedAt = performance.now();
    generateCatalogData(1000 + i);
    times.push(performance.now() - startedAt);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)] ?? Number.NaN;
}
