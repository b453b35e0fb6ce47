// Cost per call of the client against raw fetch + JSON.parse and the official MCP SDK
// client, side by side, interleaved, against one canned loopback server (in a child
// process, so its work is charged neither to the clients' latency nor to their CPU time).
// The catalog calls also run the client with its answer check off (plain zod 4 parsing),
// and every median is divided by the floor, raw fetch with a timeout signal. README.md
// beside this file keeps the current table and the history:
//   pnpm --filter @catalogkit/integration-tests bench:wire   (options: --calls 2000 --warmup 200)
// With --phases, two more websites.search contenders (raw fetch with a timeout signal, and
// the client) time where their calls spend it: before fetch is called, in it, after it.

import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { cannedAnswers } from './canned-answers.js';
import { createScenarios } from './contenders.js';
import { measureWireCost, wireCostTable } from './measure.js';
import { phaseContenders } from './phases.js';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
    phases: { type: 'boolean', default: false },
  },
});
const plan = { calls: Number(values.calls), warmup: Number(values.warmup) };
if (!(plan.calls > 0 && plan.warmup >= 0)) throw new Error('--calls and --warmup must be numbers');

const answers = await cannedAnswers();
const server = fork(new URL('./canned-server.mjs', import.meta.url), [], { stdio: 'inherit' });
server.send(answers);
const port = await new Promise<number>((resolve) =>
  server.once('message', (m) => resolve(Number(m))),
);
const loadBefore = loadavg();
try {
  const origin = `http://127.0.0.1:${port}`;
  const scenarios = await createScenarios(origin);
  const phases = values.phases ? phaseContenders(origin) : undefined;
  if (phases) scenarios[0]?.contenders.push(...phases.contenders);
  const rows = await measureWireCost(scenarios, plan);
  await Promise.all(scenarios.flatMap((s) => s.contenders.map((c) => c.close())));
  const load = (v: number[]) => v.map((x) => x.toFixed(2)).join(' / ');
  const sizes = Object.entries(answers.catalogs).map(
    ([n, body]) => `${n} products ${body.length} B`,
  );
  process.stdout.write(
    [
      `${plan.calls} calls per contender after ${plan.warmup} warm-up rounds, interleaved in a random order per round; answers: ${sizes.join(', ')} (JSON-RPC, text copy included).`,
      '',
      wireCostTable(rows),
      '',
      ...(phases ? [phases.table(plan.calls), ''] : []),
      `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; load average ${load(loadBefore)} before, ${load(loadavg())} after.`,
      '',
    ].join('\n'),
  );
  if (rows.some((row) => row.linkMismatches > 0)) process.exitCode = 1;
} finally {
  server.disconnect();
}
