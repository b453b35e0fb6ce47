/**
 * Red team R2, side by side in one run: CPU time of one paid call's redaction (add a
 * credential, then redact a 100-product answer) with N live payment credentials, for the
 * current SentSecrets (src/http/redact.ts) and the one at `OLD` (by default wave 4e's,
 * 66df504), loaded from git history into a temporary directory. Credentials:
 * 600-character base64url tokens. Medians of RUNS paid calls, ms.
 *
 *   pnpm --filter @catalogkit/core bench:credentials
 *   OLD=<revision> RUNS=31 pnpm --filter @catalogkit/core bench:credentials
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SentSecrets } from '../../src/http/redact.js';

const OLD = process.env.OLD || '66df504';
const RUNS = Number(process.env.RUNS) || 31;

async function oldSentSecrets(revision: string): Promise<typeof SentSecrets> {
  const dir = mkdtempSync(join(tmpdir(), 'sent-secrets-old-'));
  try {
    const source = execFileSync('git', ['show', `${revision}:./src/http/redact.ts`], {
      encoding: 'utf8',
    });
    writeFileSync(join(dir, 'redact.ts'), source);
    const module = (await import(pathToFileURL(join(dir, 'redact.ts')).href)) as {
      SentSecrets: typeof SentSecrets;
    };
    return module.SentSecrets;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e3;
};
const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? NaN;
const credential = () => `Payment ${randomBytes(450).toString('base64url')}`;
const answer = JSON.stringify({
  products: Array.from({ length: 100 }, (_, i) => ({
    id: `p${i}`,
    title: `Trail shoe ${i}`,
    url: `https://shop.example/p/${i}`,
  })),
});

const contenders = { current: SentSecrets, [`old (${OLD})`]: await oldSentSecrets(OLD) };
const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
console.log(
  `live credentials | ${Object.keys(contenders).join(' | ')} | ratio (ms CPU per paid call, medians of ${RUNS})`,
);
for (const live of [1, 16, 64, 256]) {
  const sets = Object.values(contenders).map((Kind) => {
    const sent = new Kind(KEY);
    for (let i = 0; i < live; i++) sent.add(credential());
    sent.redact(answer);
    return { sent, times: [] as number[] };
  });
  // Alternating paid calls, so both see the same machine load.
  for (let run = 0; run < RUNS; run++) {
    for (const set of sets) {
      const token = credential();
      const start = cpu();
      set.sent.add(token);
      set.sent.redact(answer);
      set.times.push(cpu() - start);
    }
  }
  const medians = sets.map((set) => median(set.times));
  const [now = NaN, before = NaN] = medians;
  // The merges (every √N adds) are what the median hides: the current one's mean and worst.
  const mine = sets[0]?.times ?? [];
  const mean = mine.reduce((sum, time) => sum + time, 0) / mine.length;
  const spread = `current mean ${mean.toFixed(2)}, max ${Math.max(...mine).toFixed(2)}`;
  console.log(
    `${live} | ${medians.map((m) => m.toFixed(2)).join(' | ')} | ${(before / now).toFixed(1)}× | ${spread}`,
  );
}
