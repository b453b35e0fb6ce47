/**
 * The measure of core's public surface (`pnpm --filter @catalogkit/integration-tests
 * count:exports [--unused] [--own-file] [--root <checkout>]`):
 *
 * - each entry of core's package.json `exports` (the root and every subpath): how many names
 *   it exports, split into run-time values and type-only names;
 * - `--unused`: the names of each entry that no file outside packages/core mentions (other
 *   packages' sources, tests, benchmarks and READMEs, the examples, the docs);
 * - `--own-file`: names a source module of core exports that no other file mentions (no other
 *   module, no entry, no test): helpers that need not be exported.
 *
 * `--root` measures another checkout of the repository (e.g. an older commit unpacked with
 * `git archive <commit> | tar -x -C <dir>`), for before/after numbers.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
// TypeScript 7 has no compiler API; its compatibility package is TypeScript 6's.
import ts from '@typescript/typescript6';

const args = process.argv.slice(2);
const rootIndex = args.indexOf('--root');
const repo =
  rootIndex >= 0
    ? (args[rootIndex + 1] ?? '')
    : fileURLToPath(new URL('../../../', import.meta.url));
const coreDir = join(repo, 'packages/core');

/** Frozen copies of old core sources kept as a benchmark baseline: not users of core. */
const NOT_USERS = /^packages\/integration\/bench\/link-scan\/baseline\//;
const TEXT_FILE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|md)$/;

function entrySources(): Array<{ subpath: string; file: string }> {
  const manifest = JSON.parse(readFileSync(join(coreDir, 'package.json'), 'utf8')) as {
    exports: Record<string, { '@catalogkit/source'?: string } | string>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const source = typeof target === 'string' ? undefined : target['@catalogkit/source'];
    return source ? [{ subpath, file: join(coreDir, source) }] : [];
  });
}

function repoFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed
    .split('\n')
    .filter(
      (file) => TEXT_FILE.test(file) && !NOT_USERS.test(file) && existsSync(join(repo, file)),
    );
}

interface Name {
  name: string;
  runtime: boolean;
}

function createChecker(files: string[]) {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    customConditions: ['@catalogkit/source'],
  });
  const checker = program.getTypeChecker();
  return (file: string): Name[] => {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) return [];
    return checker.getExportsOfModule(moduleSymbol).map((symbol) => {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return { name: symbol.name, runtime: (target.flags & ts.SymbolFlags.Value) !== 0 };
    });
  };
}

/** Which of `names` each file mentions as a whole word, read once per file. */
function mentions(files: string[], names: Set<string>): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of files) {
    const words = new Set(readFileSync(join(repo, file), 'utf8').match(/[A-Za-z_$][\w$]*/g));
    for (const name of names) {
      if (!words.has(name)) continue;
      found.set(name, (found.get(name) ?? new Set()).add(file));
    }
  }
  return found;
}

const describeNames = (list: Name[]) =>
  `${list.length} names (${list.filter((n) => n.runtime).length} at run time, ${list.filter((n) => !n.runtime).length} types only)`;

const entries = entrySources();
const coreModules = repoFiles()
  .filter((file) => file.startsWith('packages/core/src/') && file.endsWith('.ts'))
  .map((file) => join(repo, file));
const exportsOf = createChecker([...entries.map((entry) => entry.file), ...coreModules]);

for (const entry of entries) {
  process.stdout.write(`${entry.subpath}: ${describeNames(exportsOf(entry.file))}\n`);
}

if (args.includes('--unused')) {
  const outside = repoFiles().filter((file) => !file.startsWith('packages/core/'));
  for (const entry of entries) {
    const names = exportsOf(entry.file);
    const used = mentions(outside, new Set(names.map((n) => n.name)));
    const unused = names.filter((n) => !used.has(n.name));
    process.stdout.write(
      `${entry.subpath}: ${describeNames(unused)} used nowhere outside packages/core: ${unused.map((n) => n.name).join(', ')}\n`,
    );
  }
}

if (args.includes('--own-file')) {
  const everyFile = repoFiles();
  const modules = coreModules.filter((file) => !file.endsWith('/index.ts'));
  const exported = modules.flatMap((file) =>
    exportsOf(file).map((name) => ({ ...name, file: relative(repo, file) })),
  );
  const used = mentions(everyFile, new Set(exported.map((n) => n.name)));
  const ownOnly = exported.filter((n) => [...(used.get(n.name) ?? [])].every((f) => f === n.file));
  process.stdout.write(
    `core's modules: ${describeNames(ownOnly)} exported but mentioned in no other file:\n`,
  );
  for (const n of ownOnly)
    process.stdout.write(`  ${n.file} ${n.name}${n.runtime ? '' : ' (type)'}\n`);
}
