import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { engineViolations } from '../src/node-support.js';
import { exportTargets, publishManifest } from '../src/publish-manifest.js';
import { readBudgets } from '../src/size.js';
import { publicPackages, readManifest, repoRoot } from '../src/workspace.js';

const REPOSITORY = 'https://github.com/catalogkit/catalogkit';
const packages = publicPackages();
// The lowest Node the packages support (core's engines), which every package must run on and
// .ci/runtime-matrix tests. The root's engines are the Node that bootstraps the workspace
// (`npx pnpm install` on Node >= 20.19, which installs the project's Node 24).
const rootManifest = readManifest(repoRoot);
const coreManifest = readManifest(join(repoRoot, 'packages', 'core'));
const lowestNode = semver.minVersion(coreManifest.engines?.node ?? '')?.version ?? 'missing';

/** The files `npm pack` would put in the tarball (no build needed: it lists what is there). */
function packedFiles(dir: string): string[] {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(output) as { files: { path: string }[] }[];
  return pack?.files.map((file) => file.path) ?? [];
}

it('finds the public packages (and no private one)', () => {
  expect(packages.map((p) => p.manifest.name)).toEqual(
    expect.arrayContaining(['@catalogkit/core', '@catalogkit/ai-sdk', '@catalogkit/emulator']),
  );
  expect(packages.map((p) => p.manifest.name)).not.toContain('@catalogkit/integration-tests');
  expect(lowestNode).toBe('22.12.0');
});

describe.each(packages.map((p) => [p.manifest.name, p] as const))('%s', (_name, pkg) => {
  const { manifest, dir, folder } = pkg;

  it('is MIT with the LICENSE text in its tarball', () => {
    expect(manifest.license).toBe('MIT');
    const rootLicense = readFileSync(join(repoRoot, 'LICENSE'), 'utf8');
    expect(rootLicense).toContain('catalogkit contributors');
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(rootLicense);
    expect(packedFiles(dir)).toContain('LICENSE');
  });

  it('says where it comes from: repository with directory, homepage, bugs, keywords', () => {
    expect(manifest.repository).toEqual({
      type: 'git',
      url: `git+${REPOSITORY}.git`,
      directory: `packages/${folder}`,
    });
    expect(manifest.homepage).toBe(`${REPOSITORY}/tree/main/packages/${folder}#readme`);
    expect(manifest.bugs?.url).toBe(`${REPOSITORY}/issues`);
    expect(manifest.keywords?.length ?? 0).toBeGreaterThanOrEqual(3);
  });

  it(`declares engines.node that admits Node ${lowestNode} and nothing older than core`, () => {
    const range = manifest.engines?.node ?? '';
    expect(semver.validRange(range)).not.toBeNull();
    expect(semver.satisfies(lowestNode, range)).toBe(true);
    expect(semver.minVersion(range)?.version).toBe(lowestNode);
  });

  it('publishes exports without the workspace-only source condition, all inside `files`', () => {
    const published = publishManifest(manifest);
    expect(JSON.stringify(published.exports)).not.toContain('@catalogkit/source');
    const targets = exportTargets(published.exports);
    expect(targets.length).toBeGreaterThan(0);
    const shipped = manifest.files ?? [];
    for (const target of targets) {
      const inFiles =
        target === './package.json' ||
        shipped.some((entry) => target.replace(/^\.\//, '').startsWith(`${entry}/`));
      expect(inFiles, `${target} is not in "files"`).toBe(true);
    }
  });

  it('ships ESM bins: committed launchers of a built file, present before any build', () => {
    for (const [name, target] of Object.entries(manifest.bin ?? {})) {
      // pnpm links a workspace package's bin at install time, before a build: a bin in dist/
      // warned "Failed to create bin ... ENOENT" on every fresh install.
      expect(target, `bin ${name}`).toBe(`./bin/${name}.js`);
      expect(manifest.files).toContain('bin');
      expect(manifest.type).toBe('module'); // so .js is ESM
      const launcher = readFileSync(join(dir, target), 'utf8');
      expect(launcher.startsWith('#!/usr/bin/env node\n')).toBe(true);
      expect(launcher).toMatch(/new URL\('\.\.\/dist\/[\w-]+\.js', import\.meta\.url\)/);
    }
  });

  it('refuses to pack without a build (prepack guard)', () => {
    expect(manifest.scripts?.prepack).toBe('node ../release-rehearsal/scripts/require-build.mjs');
  });

  it(`has runtime dependencies (all of them, transitively) that support Node ${lowestNode}`, () => {
    expect(engineViolations(dir, lowestNode)).toEqual([]);
  });

  it('has a size budget (the release rehearsal measures it against size-budget.json)', () => {
    expect(
      readBudgets(join(repoRoot, 'packages', 'release-rehearsal', 'size-budget.json')),
    ).toHaveProperty([manifest.name]);
  });

  it('uses ranges, not exact pins, for runtime dependencies (no duplicate copies for users)', () => {
    for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
      expect(spec, name).toMatch(/^(workspace:\^|\^)/);
    }
  });
});

it('the publish hook removes the source condition from every subpath, at any depth', () => {
  const published = publishManifest({
    name: 'x',
    version: '1.0.0',
    exports: {
      '.': { '@catalogkit/source': './src/index.ts', import: './dist/index.js' },
      './schemas': {
        import: { '@catalogkit/source': './src/schemas.ts', default: './dist/schemas.js' },
      },
    },
  });
  expect(published.exports).toEqual({
    '.': { import: './dist/index.js' },
    './schemas': { import: { default: './dist/schemas.js' } },
  });
});

it('the publish hook points TypeScript node10 resolution at each subpath (typesVersions)', () => {
  const published = publishManifest({
    name: 'x',
    version: '1.0.0',
    exports: {
      '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } },
      './schemas': {
        import: { types: './dist/schemas/index.d.ts', default: './dist/schemas/index.js' },
        require: { types: './dist/schemas/index.d.cts', default: './dist/schemas/index.cjs' },
      },
      './package.json': './package.json',
    },
  }) as { typesVersions?: unknown };
  expect(published.typesVersions).toEqual({
    '*': { schemas: ['./dist/schemas/index.d.cts'] },
  });
  const withoutSubpaths = publishManifest({
    name: 'x',
    version: '1.0.0',
    exports: { '.': './a.js' },
  });
  expect(withoutSubpaths).not.toHaveProperty('typesVersions');
});

it('the release script publishes with pnpm (the hook above runs) and tags the versions', () => {
  const scripts = (rootManifest as { scripts?: Record<string, string> }).scripts ?? {};
  expect(scripts.release).toMatch(/pnpm publish -r/);
  expect(scripts['release:rehearse']).toBeDefined();
  expect(existsSync(join(repoRoot, '.pnpmfile.cjs'))).toBe(true);
});
