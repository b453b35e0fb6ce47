import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyTscErrors } from '../src/tsc-errors.js';

// A project whose strict, skipLibCheck: false check fails in three places: inside a
// third-party package's own declarations, inside an @catalogkit package's, and in its source.
const dir = mkdtempSync(join(tmpdir(), 'tsc-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
}

function tscOutput(files: string[]): string {
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext' },
      files,
    }),
  );
  const tsc = join(__dirname, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: dir, encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

write(
  'node_modules/upstream/package.json',
  '{"name":"upstream","version":"6.1.0","types":"index.d.ts"}',
);
write(
  'node_modules/upstream/index.d.ts',
  "import type { Missing } from 'no-types-here';\nexport declare const a: Missing;\n",
);
write(
  'node_modules/@catalogkit/core/package.json',
  '{"name":"@catalogkit/core","version":"0.1.0"}',
);
write('node_modules/@catalogkit/core/index.d.ts', 'export declare const b: NotDefined;\n');
write('src/ok.ts', "import { a } from 'upstream';\nexport const c = a;\n");
write('src/ours.ts', 'export const d: number = "not a number";\n');

describe('classifyTscErrors (real tsc output)', () => {
  it("reports an error inside a dependency's own declarations as that dependency's, with its version", () => {
    const errors = classifyTscErrors(tscOutput(['src/ok.ts']), dir);
    expect(errors.ours).toEqual([]);
    expect([...errors.dependencies.keys()]).toEqual(['upstream@6.1.0']);
  });

  it('keeps errors in our declarations and in the project as ours', () => {
    const output = tscOutput([
      'src/ok.ts',
      'src/ours.ts',
      'node_modules/@catalogkit/core/index.d.ts',
    ]);
    const errors = classifyTscErrors(output, dir);
    expect(errors.ours.map((line) => line.split('(')[0])).toEqual(
      expect.arrayContaining(['src/ours.ts', 'node_modules/@catalogkit/core/index.d.ts']),
    );
    expect([...errors.dependencies.keys()]).toEqual(['upstream@6.1.0']);
  });

  it('counts an error with no file as ours', () => {
    const errors = classifyTscErrors("error TS5083: Cannot read file 'x/tsconfig.json'.", dir);
    expect(errors.ours).toHaveLength(1);
  });
});
