/*
 * Verifying and rendering 10 MB of hostile text, side by side with the hand-written scanner
 * this package replaced (core's `links/` at commit bab0501, extracted from git history into a
 * temporary directory at run time, so its code stays out of the package). Then resolving
 * 10 MB of references (`buy:ID`, `[[buy:ID]]`) in one call and as a stream, beside the same
 * at the limit (MAX_PARSED_CHARS): past it nothing is read, so the two cost about the same.
 * Prints the median of each. Run: `pnpm --filter @catalogkit/links bench`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BuyLinkStreamResolver,
  buyLinkReference,
  finalizeBuyLinks,
  MAX_PARSED_CHARS,
  renderAnswerHtml,
  resolveBuyLinks,
  verifyBuyLinks,
} from '../src/index.js';

const OLD_COMMIT = 'bab0501';
const SIZE = 10 * 1024 * 1024;
const RUNS = Number(process.env.RUNS ?? 5);
const LINK =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&u=https%3A%2F%2Fshop.test%2Fp%3Fv%3D2&sig=2kforr';
const sources = [
  {
    toolName: 'search_catalog',
    output: { response: { products: [{ variants: [{ url: LINK }] }] } },
  },
];

function fill(unit: string): string {
  return unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
}

/** Hostile 10 MB answers. */
const INPUTS: Record<string, string> = {
  'svg set + links': fill(
    `<svg><a href="${LINK}"><set attributeName="href" to="javascript:alert(1)"/>Buy</a></svg> [Buy](${LINK}) `,
  ),
  'brackets and parens': fill('[[[[a](((( '),
  'unclosed link targets': fill('[a]('),
  'near-miss buy links': fill(`${LINK.slice(0, -3)}zzz `),
  'realistic answer': fill(`Top pick: [Glide](${LINK}), light. See https://www.shop.test too.\n`),
};

/** Today's scanner, from git history (never from this package's src). */
async function oldScanner(): Promise<(text: string, sources: unknown) => unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'links-old-'));
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  const archive = execFileSync(
    'git',
    [
      '-C',
      root,
      'archive',
      OLD_COMMIT,
      'packages/core/src/links',
      'packages/core/src/is-record.ts',
    ],
    { maxBuffer: 1 << 26 },
  );
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const module = await import(join(dir, 'packages/core/src/links/index.ts'));
  return module.verifyBuyLinks;
}

/** Median CPU milliseconds of `RUNS` calls (CPU time: the machine is shared). */
function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const oldVerify = await oldScanner();
console.log(`10 MB inputs, median CPU ms of ${RUNS} runs`);
console.log(
  'input'.padEnd(24),
  'old verify',
  'verify',
  'render',
  '| at the parse cap: verify',
  'render',
);
for (const [name, text] of Object.entries(INPUTS)) {
  const old = median(() => oldVerify(text, sources));
  const verify = median(() => verifyBuyLinks(text, sources));
  const render = median(() => renderAnswerHtml(text, sources));
  // The longest answer that is parsed: the parser's own worst case on this input.
  const capped = text.slice(0, MAX_PARSED_CHARS);
  const cappedVerify = median(() => verifyBuyLinks(capped, sources));
  const cappedRender = median(() => renderAnswerHtml(capped, sources));
  const row = [old, verify, render, cappedVerify, cappedRender].map((ms) => ms.toFixed(0));
  console.log(name.padEnd(24), row.map((cell) => cell.padStart(8)).join(' '));
}

/** 10 MB of references, resolved whole, finalized, and streamed in 64-character chunks. */
const REFERENCE = buyLinkReference(LINK);
const BARE = `buy:${/\d+/.exec(REFERENCE)![0]}`;
const REFERENCES: Record<string, string> = {
  'bare buy:ID': fill(`${BARE} `),
  '[[buy:ID]]': fill(`${REFERENCE} `),
  'unknown ids': fill('[[buy:000000001]] '),
};
function streamed(text: string): string {
  const stream = new BuyLinkStreamResolver({ toolOutputs: sources });
  let out = '';
  for (let i = 0; i < text.length; i += 64) out += stream.write(text.slice(i, i + 64));
  return out + stream.end();
}
console.log(`\n10 MB of references, median CPU ms of ${RUNS} runs`);
console.log(
  'input'.padEnd(24),
  'resolve',
  'finalize',
  'stream',
  '| at the limit: resolve',
  'stream',
);
for (const [name, text] of Object.entries(REFERENCES)) {
  const capped = text.slice(0, MAX_PARSED_CHARS);
  const row = [
    median(() => resolveBuyLinks(text, sources)),
    median(() => finalizeBuyLinks(text, sources)),
    median(() => streamed(text)),
    median(() => resolveBuyLinks(capped, sources)),
    median(() => streamed(capped)),
  ].map((ms) => ms.toFixed(0));
  console.log(name.padEnd(24), row.map((cell) => cell.padStart(8)).join(' '));
}
