// Link scanning time, current against the pre-issue-23 algorithm (baseline/):
// `pnpm --filter @catalogkit/integration-tests bench:link-scan`. Each cell is the median of
// several runs of verifyBuyLinks + finalizeBuyLinks (baseline: verify + repair). The
// baseline is quadratic, so it runs on 20 KB; the current scan also runs on 10 MB.
import { measureScan, measureStream, scanMarkdown } from './scan.js';

const runs = Number(process.env.LINK_SCAN_RUNS) || 5;
process.stdout.write('## Equal size (20 KB): current against baseline\n\n');
process.stdout.write(`${scanMarkdown(measureScan(20_000, runs, true))}\n\n`);
process.stdout.write('## 10 MB of each input: current only (the baseline takes minutes)\n\n');
process.stdout.write(`${scanMarkdown(measureScan(10_000_000, Math.min(runs, 3), false))}\n`);
process.stdout.write('\n## Stream with repair, 60-character chunks (red team F7: 50 s before)\n\n');
for (const count of [500, 2_000]) {
  const ms = measureStream(count, Math.min(runs, 3));
  process.stdout.write(`- ${count} near-miss links: ${ms.toFixed(1)} ms\n`);
}
