/**
 * Side-by-side benchmark of the redactor on 10 MB, in one run: the current one
 * (src/http/redact.ts) against an earlier one loaded from git history (`OLD`, a revision;
 * by default c3d357a, the automaton wave 4i replaced by one KMP matcher per form). Its files are written to a temporary
 * directory and imported from there, so no copy is committed. Each text is redacted by
 * both, alternating, RUNS times; the table gives medians of CPU time in ms (the process's,
 * garbage collection included).
 *
 *   pnpm --filter @catalogkit/core bench:redact
 *   OLD=<revision> RUNS=7 pnpm --filter @catalogkit/core bench:redact
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRedactor } from '../../src/http/redact.js';

/** Main before wave 4i (c3d357a: one Aho-Corasick automaton of the forms, 321 lines). */
const OLD = process.env.OLD || 'c3d357a';
const RUNS = Number(process.env.RUNS) || 5;
const SIZE = 10_000_000;

/** `createRedactor` of src/http/redact.ts at `revision` (with redact-view.ts where it had one). */
async function oldRedactor(revision: string): Promise<typeof createRedactor> {
  const dir = mkdtempSync(join(tmpdir(), 'redact-old-'));
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });
  try {
    const files = git('ls-tree', '--name-only', revision, 'src/http/').split('\n');
    for (const name of ['redact.ts', 'redact-view.ts']) {
      if (!files.includes(`src/http/${name}`)) continue;
      writeFileSync(join(dir, name), git('show', `${revision}:./src/http/${name}`));
    }
    const module = (await import(pathToFileURL(join(dir, 'redact.ts')).href)) as {
      createRedactor: typeof createRedactor;
    };
    return module.createRedactor;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const KEY = `ck_live_${randomBytes(12).toString('hex')}`;
const TOKEN = `tok_${randomBytes(24).toString('base64url')}`;
const CREDENTIAL = randomBytes(180).toString('base64');
const SECRETS = [KEY, TOKEN, CREDENTIAL];

const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

/** A catalog answer as JSON text: what most redactions see, with no secret in it. */
const product = JSON.stringify({
  id: 'prod_1',
  title: 'Summit 6 Trail Running Shoe &amp; gaiter, 100% recycled',
  url: 'https://shop.example/p/summit-6?ref=a%2Fb&utm=x',
  description: 'Grippy outsole, \\u00e9tanche membrane, 8 mm drop. '.repeat(4),
});
const echoes = [
  KEY,
  KEY.toUpperCase(),
  encodeURIComponent(CREDENTIAL),
  JSON.stringify(CREDENTIAL).replaceAll('/', '\\/'),
  CREDENTIAL.replace(/[+/=]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
  Buffer.from(TOKEN).toString('base64'),
];

const TEXTS: Record<string, string> = {
  'catalog JSON, no secret': fill(product),
  'catalog JSON, an echo per 1 KB': fill(`${product.slice(0, 900)} ${echoes.join(' ')} `),
  'hostile: near misses, escapes': fill(
    `${KEY.slice(0, -1)}${encodeURIComponent(CREDENTIAL).slice(0, -3)}${TOKEN.slice(0, 22)}%25&#x`,
  ),
  // Red team A5: text of escapes only, nested ones among them (was about 6 s per 10 MB).
  'hostile: escapes only': fill('%2F&amp;\\u00e9&#x2F;&#00047;\\/%25%252541&amp;#x26;\\u0026#x41;'),
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The CPU time of one redaction, in ms: wall time counts the other sessions on the machine. */
function time(redact: (text: string) => string, text: string): number {
  const start = process.cpuUsage();
  redact(text);
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

const oldCreate = await oldRedactor(OLD);
const contenders = { new: createRedactor(...SECRETS), old: oldCreate(...SECRETS) };
console.log(
  `redactor on ${SIZE / 1e6} MB, median CPU time of ${RUNS} runs (ms), node ${process.version}; old: ${OLD}`,
);
console.log('| text | new | old | old ÷ new |');
console.log('|---|---:|---:|---:|');
for (const [name, text] of Object.entries(TEXTS)) {
  const times = { new: [] as number[], old: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const id of ['new', 'old'] as const) times[id].push(time(contenders[id], text));
  }
  const [fresh, old] = [median(times.new), median(times.old)];
  console.log(
    `| ${name} | ${fresh.toFixed(0)} | ${old.toFixed(0)} | ${(old / fresh).toFixed(1)}× |`,
  );
}

/** A catalog answer as a value (what the tools redact): 100 products, 5 variants each. */
const answer = {
  products: Array.from({ length: 100 }, (_, i) => ({
    id: `prod_${i}`,
    title: `Summit ${i} Trail Running Shoe`,
    description: 'Grippy outsole, étanche membrane, 8 mm drop. '.repeat(3),
    url: `https://shop.example/p/summit-${i}?ref=a%2Fb&utm=x`,
    brand: { id: 'brand_1', name: 'Summit' },
    price: { amount: 12900, currency: 'USD' },
    variants: Array.from({ length: 5 }, (_, j) => ({
      id: `var_${i}_${j}`,
      title: `Size ${j}`,
      options: [{ name: 'size', value: `${j}` }],
      available: true,
    })),
  })),
};
const values = { new: [] as number[], old: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  for (const id of ['new', 'old'] as const) {
    const start = process.cpuUsage();
    for (let i = 0; i < 100; i++) contenders[id](answer);
    const { user, system } = process.cpuUsage(start);
    values[id].push((user + system) / 100 / 1000);
  }
}
const [fresh, old] = [median(values.new), median(values.old)];
console.log(
  `| a 100-product answer as a value (per answer) | ${fresh.toFixed(2)} | ${old.toFixed(2)} | ${(old / fresh).toFixed(1)}× |`,
);

/**
 * What a paid call adds: its redactor (the key and its credential) is built at its first use
 * and redacts the answer. Credentials of 600 characters and of 16 KiB (the longest sent).
 */
for (const length of [600, 16_384]) {
  const credentials = Array.from({ length: 32 }, () =>
    randomBytes(length).toString('base64url').slice(0, length),
  );
  const paid = { new: [] as number[], old: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [id, create] of [
      ['new', createRedactor],
      ['old', oldCreate],
    ] as const) {
      const start = process.cpuUsage();
      for (const credential of credentials) create(KEY, credential)(answer);
      const { user, system } = process.cpuUsage(start);
      paid[id].push((user + system) / credentials.length / 1000);
    }
  }
  const [built, oldBuilt] = [median(paid.new), median(paid.old)];
  console.log(
    `| a paid call: build key + ${length}-char credential, redact the answer | ${built.toFixed(2)} | ${oldBuilt.toFixed(2)} | ${(oldBuilt / built).toFixed(1)}× |`,
  );
}
