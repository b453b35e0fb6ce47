import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../src/workspace.js';

const exec = promisify(execFile);
const GUARD = join(repoRoot, 'packages', 'release-rehearsal', 'scripts', 'require-build.mjs');
const work = mkdtempSync(join(tmpdir(), 'pack-guard-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A package laid out as ours are (packages/<name>, the guard at ../release-rehearsal/scripts),
 * with our prepack script, exports with the source condition and a bin launcher.
 */
function fixture(name: string): string {
  const root = join(work, name);
  const dir = join(root, 'packages', 'demo');
  mkdirSync(join(root, 'packages', 'release-rehearsal', 'scripts'), { recursive: true });
  copyFileSync(GUARD, join(root, 'packages', 'release-rehearsal', 'scripts', 'require-build.mjs'));
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'src', 'index.ts'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'bin', 'demo.js'), "import '../dist/cli.js';\n");
  const manifest = {
    name: '@catalogkit/demo',
    version: '1.0.0',
    type: 'module',
    files: ['dist', 'bin'],
    bin: { demo: './bin/demo.js' },
    exports: {
      '.': { '@catalogkit/source': './src/index.ts', import: './dist/index.js' },
    },
    scripts: { prepack: 'node ../release-rehearsal/scripts/require-build.mjs' },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  return dir;
}

const failure = (error: unknown) => error as { code?: number; stderr?: string };

describe('prepack guard (scripts/require-build.mjs)', () => {
  it('stops `npm pack` of an unbuilt package, naming the missing file and the fix', async () => {
    const dir = fixture('unbuilt');
    const packing = exec('npm', ['pack', '--dry-run'], { cwd: dir });
    const error = failure(
      await packing.then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(error?.code).not.toBe(0);
    expect(error?.stderr).toContain(
      '@catalogkit/demo is not built: the tarball would hold no code (missing ./dist/index.js)',
    );
    expect(error?.stderr).toContain('Run `pnpm build`');
  });

  it('lets `npm pack` through once the build is there (the source condition is not required)', async () => {
    const dir = fixture('built');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.js'), 'export const x = 1;\n');
    const { stdout } = await exec('npm', ['pack', '--dry-run', '--json'], { cwd: dir });
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    expect(pack?.files.map((f) => f.path)).toContain('dist/index.js');
  });
});
