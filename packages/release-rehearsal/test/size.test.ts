import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtJavaScript, overPageBudget } from '../src/page-budgets.js';
import {
  measure,
  measurePage,
  overBudget,
  readBundledBudgets,
  readPageBudgets,
  sizeOf,
} from '../src/size.js';

// A known small page: an entry importing one name from a package whose other export is a
// large incompressible string. Measured as a browser page, the used code counts, the unused
// export is shaken out, and what is reported is what the bundle is.
let dir: string;
const used = randomBytes(6_000).toString('hex'); // 12,000 characters gzip cannot shrink much
const unused = randomBytes(6_000).toString('hex');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'size-test-'));
  const pkg = join(dir, 'node_modules', 'known-page-dep');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({
      name: 'known-page-dep',
      type: 'module',
      sideEffects: false,
      exports: { '.': { browser: './browser.js', default: './node.js' } },
    }),
  );
  writeFileSync(
    join(pkg, 'browser.js'),
    `export const usedText = '${used}';\nexport const unusedText = '${unused}';\n`,
  );
  writeFileSync(join(pkg, 'node.js'), `export const usedText = 'node';\n`);
  mkdirSync(join(dir, 'dist', 'assets', 'nested'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'assets', 'a.js'), `console.log('${used}');`);
  writeFileSync(join(dir, 'dist', 'assets', 'nested', 'b.js'), 'export const b = 1;');
  writeFileSync(join(dir, 'dist', 'assets', 'style.css'), `body{color:red}/*${unused}*/`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('measurePage: a page bundled with what it pulls in', () => {
  it('counts the dependency code the page uses, resolved for a browser, and nothing unused', async () => {
    const page = await measurePage(`export { usedText } from 'known-page-dep';`, dir);
    // The used string is in (the browser build, not the node one); the unused one is not.
    expect(page.minified).toBeGreaterThan(used.length);
    expect(page.minified).toBeLessThan(used.length + unused.length);
    expect(page.gzipped).toBeLessThan(page.minified);
    // Hex halves in size at best under gzip: the bundle is at least that.
    expect(page.gzipped).toBeGreaterThan(used.length / 2);
  });

  it('reports the gzip -9 size of exactly the bytes measured', () => {
    const code = new TextEncoder().encode(`const x = '${used}';`);
    const size = sizeOf(code);
    expect(size.minified).toBe(code.byteLength);
    const gzipped = gzipSync(code, { level: 9 });
    expect(size.gzipped).toBe(gzipped.byteLength);
    expect(gunzipSync(gzipped).equals(Buffer.from(code))).toBe(true);
  });
});

describe('builtJavaScript: what a built page ships', () => {
  it('sums every .js file under the folder, nested ones too, each gzipped on its own', () => {
    const a = sizeOf(new TextEncoder().encode(`console.log('${used}');`));
    const b = sizeOf(new TextEncoder().encode('export const b = 1;'));
    expect(builtJavaScript(join(dir, 'dist', 'assets'))).toEqual({
      minified: a.minified + b.minified,
      gzipped: a.gzipped + b.gzipped,
    });
  });
});

describe('page budgets', () => {
  it('fails a page past its budget or without one', () => {
    const page = { name: 'p', minified: 3000, gzipped: 1000 };
    expect(overPageBudget({ ...page, budget: 1000 })).toBe(false);
    expect(overPageBudget({ ...page, budget: 999 })).toBe(true);
    expect(overPageBudget({ ...page, budget: undefined })).toBe(true);
  });

  it('size-budget.json sets a budget for every page the rehearsal measures', async () => {
    const { PAGES, WEB_CHAT_PAGE } = await import('../src/page-budgets.js');
    const budgets = readPageBudgets(join(import.meta.dirname, '..', 'size-budget.json'));
    for (const name of [...PAGES.map((page) => page.name), WEB_CHAT_PAGE]) {
      expect(budgets[name], name).toBeGreaterThan(0);
    }
  });
});

describe('measure with a parser bundled (size-budget.json parserDependencies)', () => {
  // A package whose entry imports a parser (resolved by `main` only, as punycode.js is) and
  // another @catalogkit package: with the parser bundled, its code counts; without, it does not.
  const parserText = randomBytes(4_000).toString('hex');
  let pkgDir: string;
  const manifest = {
    name: '@catalogkit/known',
    version: '0.0.0',
    dependencies: { 'known-parser': '1.0.0', '@catalogkit/other': '1.0.0' },
  };

  beforeAll(() => {
    pkgDir = join(dir, 'known-package');
    mkdirSync(join(pkgDir, 'dist'), { recursive: true });
    writeFileSync(
      join(pkgDir, 'dist', 'index.js'),
      `import { parse } from 'known-parser';\nimport { other } from '@catalogkit/other';\nexport const run = (text) => other(parse(text));\n`,
    );
    const parser = join(pkgDir, 'node_modules', 'known-parser');
    mkdirSync(parser, { recursive: true });
    writeFileSync(
      join(parser, 'package.json'),
      JSON.stringify({ name: 'known-parser', main: 'index.js' }),
    );
    writeFileSync(join(parser, 'index.js'), `exports.parse = (t) => t + '${parserText}';\n`);
  });

  it('counts the bundled parser and names it; without it the parser stays external', async () => {
    const alone = await measure(pkgDir, manifest, 1000);
    const withParser = await measure(pkgDir, manifest, 1000, ['known-parser']);
    expect(alone.name).toBe('@catalogkit/known');
    expect(alone.gzipped).toBeLessThan(500);
    expect(withParser.name).toBe('@catalogkit/known with known-parser');
    expect(withParser.gzipped).toBeGreaterThan(parserText.length / 2);
    expect(overBudget(alone)).toBe(false);
    expect(overBudget(withParser)).toBe(true);
    expect(overBudget({ ...alone, budget: undefined })).toBe(true);
  });

  it('size-budget.json budgets the links package with markdown-it bundled', () => {
    const budgets = readBundledBudgets(join(import.meta.dirname, '..', 'size-budget.json'));
    const links = budgets['@catalogkit/links'];
    expect(links?.bundled).toEqual(['markdown-it']);
    expect(links!.measured).toBeLessThanOrEqual(links!.budget);
  });
});
