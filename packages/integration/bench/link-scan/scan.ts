import { BuyLinkStreamResolver, finalizeBuyLinks, verifyBuyLinks } from '@catalogkit/links';
import {
  repairBuyLinks as baselineRepair,
  verifyBuyLinks as baselineVerify,
} from './baseline/verify.js';

/** A monetized link shaped like the service's. */
export const LINK =
  'https://go.catalogkit.test/r/web_rzyeku4y?pub=pub_usr_demo&campaign=agent+search&u=https%3A%2F%2Fwww.birchmarket.fr%2Fproducts%2Fonyxon-glide%3Fvariant%3D240292&sig=2kforr';
const result = { result: { products: [{ variants: [{ url: LINK }] }] } };
const sources = [{ toolName: 'search_catalog', output: result }];

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Hostile and realistic inputs of a given size, by name. */
export const INPUTS: Record<string, (size: number) => string> = {
  'URL then `)`': (size) => `see https://x.test/${')'.repeat(size)}`,
  'only `)`': (size) => ')'.repeat(size),
  'short URLs': (size) => fill('https://x.test/a ', size),
  'distinct short URLs': (size) =>
    fill(Array.from({ length: 5000 }, (_, i) => `https://x${i}.test/a`).join(' '), size),
  'near-miss buy links': (size) => fill(`${LINK.slice(0, -3)}zzz `, size),
  'markdown targets': (size) => fill('[x](//e.test/a)', size),
  'unclosed tags': (size) => fill('<a href=x ', size),
  'realistic answer': (size) =>
    fill(`Top pick: [Glide](${LINK}), light and fast. See https://www.birchmarket.fr too.\n`, size),
  prose: (size) => fill('lorem ipsum dolor sit amet, consectetur. ', size),
  // Red team F6: 1,990 distinct near misses (one character off), then filler to the size.
  'near misses + filler (F6)': (size) => {
    const misses = nearMisses(LINK, 1_990);
    return `${misses} ${fill('word ', Math.max(0, size - misses.length - 1))}`.slice(0, size);
  },
  // Red team F1: fake tags that open a quoted value, then real attributes.
  'fake tags and attributes (F1)': (size) =>
    fill('`<b title="` then <a href="//evil.example/x">Buy</a> ', size),
  'bare href= tokens (F1)': (size) => fill(' href="', size),
};

/** `count` copies of `link`, each with one character changed at a place that varies. */
export function nearMisses(link: string, count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const at = 40 + ((i * 7) % (link.length - 60));
    return link.slice(0, at) + String.fromCharCode(97 + (i % 26)) + link.slice(at + 1);
  }).join(' ');
}

/** Milliseconds of one run of `check` on `text`. */
function time(check: () => void): number {
  const started = performance.now();
  check();
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** verify + finalize with the current core, and the baseline's verify + repair. */
export const SCANS = {
  current: (text: string) => {
    verifyBuyLinks(text, sources);
    finalizeBuyLinks(text, sources);
  },
  baseline: (text: string) => {
    baselineVerify(text, [result]);
    baselineRepair(text, [result]);
  },
};

/**
 * Red team F7: `count` near misses streamed in 60-character chunks through a resolver with
 * repair (one work budget for the whole stream). Milliseconds, median of `runs`.
 */
export function measureStream(count: number, runs: number): number {
  const text = `${nearMisses(LINK, count)} `;
  const once = () => {
    const resolver = new BuyLinkStreamResolver({ toolOutputs: sources });
    for (let i = 0; i < text.length; i += 60) resolver.write(text.slice(i, i + 60));
    resolver.end();
  };
  return median(Array.from({ length: runs }, () => time(once)));
}

export interface ScanRow {
  input: string;
  size: number;
  currentMs: number;
  baselineMs?: number;
}

/** Medians of `runs` runs of each scan on each input. */
export function measureScan(size: number, runs: number, baseline: boolean): ScanRow[] {
  return Object.entries(INPUTS).map(([input, make]) => {
    const text = make(size);
    const currentMs = median(Array.from({ length: runs }, () => time(() => SCANS.current(text))));
    if (!baseline) return { input, size, currentMs };
    const baselineMs = median(Array.from({ length: runs }, () => time(() => SCANS.baseline(text))));
    return { input, size, currentMs, baselineMs };
  });
}

export function scanMarkdown(rows: ScanRow[]): string {
  const lines = [
    '| input | size | current ms | baseline ms | baseline / current |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const ratio = row.baselineMs === undefined ? '' : (row.baselineMs / row.currentMs).toFixed(1);
    const base = row.baselineMs === undefined ? 'not run' : row.baselineMs.toFixed(1);
    lines.push(`| ${row.input} | ${row.size} | ${row.currentMs.toFixed(1)} | ${base} | ${ratio} |`);
  }
  return lines.join('\n');
}
