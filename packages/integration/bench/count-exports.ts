/**
 * Counts the names a package entry exports, split into run-time values and type-only names:
 * the measure of the public surface (`pnpm --filter @catalogkit/integration-tests
 * count:exports [entry ...]`, default core's root and `./schemas`).
 */
import { fileURLToPath } from 'node:url';
// TypeScript 7 has no compiler API; its compatibility package is TypeScript 6's.
import ts from '@typescript/typescript6';

const coreSource = (path: string) =>
  fileURLToPath(new URL(`../../core/src/${path}`, import.meta.url));
const entries = process.argv.slice(2);
const files =
  entries.length > 0 ? entries : [coreSource('index.ts'), coreSource('schemas/index.ts')];

const program = ts.createProgram(files, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
  customConditions: ['@catalogkit/source'],
});
const checker = program.getTypeChecker();

for (const file of files) {
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${file}: not a module`);
  const names = checker.getExportsOfModule(moduleSymbol);
  const runtime = names.filter((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return (target.flags & ts.SymbolFlags.Value) !== 0;
  });
  process.stdout.write(
    `${file}: ${names.length} names (${runtime.length} at run time, ${names.length - runtime.length} types only)\n`,
  );
}
