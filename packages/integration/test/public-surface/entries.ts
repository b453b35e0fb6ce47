import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// TypeScript 7 has no compiler API; its compatibility package is TypeScript 6's.
import ts from '@typescript/typescript6';

/** packages/core, whose package.json `exports` lists the entries. */
export const CORE_DIR = fileURLToPath(new URL('../../../core/', import.meta.url));

/** One entry of @catalogkit/core: `.` or a subpath such as `./errors`. */
export interface CoreEntry {
  /** The `exports` key: `.`, `./errors`, ... */
  subpath: string;
  /** The import specifier: `@catalogkit/core`, `@catalogkit/core/errors`, ... */
  specifier: string;
  /** The source file (the `@catalogkit/source` condition), absolute. */
  source: string;
  /** The published ESM file, relative to the package (`./dist/errors/index.js`). */
  esm: string;
  /** The published CommonJS file, relative to the package. */
  cjs: string;
}

interface ConditionalExport {
  '@catalogkit/source': string;
  import: { types: string; default: string };
  require: { types: string; default: string };
}

/** Every code entry of core's package.json `exports` (not `./package.json`), in order. */
export function coreEntries(): CoreEntry[] {
  const manifest = JSON.parse(readFileSync(`${CORE_DIR}package.json`, 'utf8')) as {
    exports: Record<string, ConditionalExport | string>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) =>
    typeof target === 'string'
      ? []
      : [
          {
            subpath,
            specifier: `@catalogkit/core${subpath.slice(1)}`,
            source: `${CORE_DIR}${target['@catalogkit/source'].slice(2)}`,
            esm: target.import.default,
            cjs: target.require.default,
          },
        ],
  );
}

/** One exported name of an entry, as the compiler sees it. */
export interface ExportedName {
  name: string;
  /** A value at run time (class, function, constant); false for a type-only name. */
  runtime: boolean;
  /** The TSDoc summary of its declaration, empty when it has none. */
  doc: string;
  /** The file that declares it, relative to core/src. */
  declaredIn: string;
}

/**
 * Reads every exported name of each file with the compiler API (one program for all, with
 * the workspace's source condition), following re-exports to the declaration.
 */
export function exportedNames(files: readonly string[]): Map<string, ExportedName[]> {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    customConditions: ['@catalogkit/source'],
  });
  const checker = program.getTypeChecker();
  const result = new Map<string, ExportedName[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${file}: not a module`);
    result.set(
      file,
      checker.getExportsOfModule(moduleSymbol).map((symbol) => describe(checker, symbol)),
    );
  }
  return result;
}

function describe(checker: ts.TypeChecker, symbol: ts.Symbol): ExportedName {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target.declarations?.[0];
  return {
    name: symbol.name,
    runtime: (target.flags & ts.SymbolFlags.Value) !== 0,
    doc: ts.displayPartsToString(target.getDocumentationComment(checker)).trim(),
    declaredIn: declaration
      ? declaration.getSourceFile().fileName.replace(`${CORE_DIR}src/`, '')
      : '(unknown)',
  };
}
