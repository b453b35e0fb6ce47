/*
 * The kit's secrets check (`secretsShown`) on 1 MB and 10 MB of text, with a 24- and a
 * 240-character secret, side by side with the matcher it replaced (the kit's own, at commit
 * f94acb3, extracted from git history into a temporary directory at run time, so its code stays
 * out of the package). The time must grow with the text alone, not with text × secret length.
 * Prints the median of each, and the ratios. Run: `pnpm --filter @catalogkit/testing bench`
 * (RUNS=5 by default; OLD=0 skips the old matcher).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secretsShown } from '../src/assertions/echoes.js';

type Check = (text: string, secrets: readonly string[]) => string[];

const OLD_COMMIT = 'f94acb3';
const RUNS = Number(process.env.RUNS ?? 5);
const MB = 1024 * 1024;
const here = dirname(fileURLToPath(import.meta.url));

/** A secret of `length` characters, as keys are written (no run repeats). */
function secretOf(length: number): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let secret = 'ck_live_';
  for (let i = 0; secret.length < length; i++) secret += alphabet[(i * 7 + 3) % alphabet.length];
  return secret;
}

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Hostile and ordinary texts of `size` characters for `secret` (the new check finds none). */
function inputs(secret: string, size: number): Record<string, string> {
  return {
    // The secret but its last character, over and over: every run of it matches.
    'near misses': fill(`${secret.slice(0, -1)} `, size),
    // References, escapes and Markdown: what the decoders and the renderer read.
    'escapes and Markdown': fill(
      `Great **shoes** &amp; [a link](https://x.example/?q=%41%42) &#x61;&#98; \\u0063 ${secret.slice(0, 9)}\n`,
      size,
    ),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(check: Check, text: string, secret: string): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    check(text, [secret]);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The matcher this package replaced, from git history (never from this package's src). */
async function oldCheck(): Promise<Check> {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const source = execFileSync(
    'git',
    ['-C', root, 'show', `${OLD_COMMIT}:packages/testing/src/assertions/echoes.ts`],
    { encoding: 'utf8' },
  ).replace("'@catalogkit/links'", JSON.stringify(resolve(here, '../../links/src/index.ts')));
  const dir = mkdtempSync(join(tmpdir(), 'kit-echoes-old-'));
  try {
    writeFileSync(join(dir, 'echoes.ts'), source);
    const module = (await import(join(dir, 'echoes.ts'))) as { secretsShown: Check };
    return module.secretsShown;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const checks: [string, Check][] = [['secretsShown (core matcher)', secretsShown]];
if (process.env.OLD !== '0')
  checks.push([`the kit's own matcher (${OLD_COMMIT})`, await oldCheck()]);

const rows: string[] = [];
for (const [name, check] of checks) {
  const ms: Record<string, number> = {};
  for (const secretLength of [24, 240]) {
    const secret = secretOf(secretLength);
    for (const size of [1, 10]) {
      for (const [kind, text] of Object.entries(inputs(secret, size * MB))) {
        const key = `${kind}, ${size} MB, secret ${secretLength}`;
        ms[key] = time(check, text, secret);
        rows.push(`| ${name} | ${key} | ${ms[key]?.toFixed(0)} ms |`);
      }
    }
  }
  for (const kind of ['near misses', 'escapes and Markdown']) {
    const at = (size: number, length: number) => ms[`${kind}, ${size} MB, secret ${length}`] ?? 0;
    rows.push(
      `| ${name} | ${kind}: 10 MB ÷ 1 MB (secret 24) | ${(at(10, 24) / at(1, 24)).toFixed(1)}× |`,
      `| ${name} | ${kind}: secret 240 ÷ 24 (10 MB) | ${(at(10, 240) / at(10, 24)).toFixed(1)}× |`,
    );
  }
}
process.stdout.write(
  `medians of ${RUNS} runs\n| check | text | median |\n| --- | --- | --- |\n${rows.join('\n')}\n`,
);
