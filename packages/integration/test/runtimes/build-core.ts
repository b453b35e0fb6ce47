import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** packages/core, whose own tsup config builds the published bundle. */
export const CORE_DIR = fileURLToPath(new URL('../../../core/', import.meta.url));
const FIXTURES_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A fresh build of core in a temporary folder. */
export interface CoreBuild {
  /** The ESM bundle, as published (`dist/index.js`). */
  esm: string;
  /** The CommonJS bundle, as published (`dist/index.cjs`). */
  cjs: string;
  outDir: string;
  /** Deletes the temporary folder. */
  remove(): Promise<void>;
}

/**
 * Builds core with its own tsup config (same entry, formats and target as `pnpm build`) into
 * a temporary folder, so the tests see fresh output without racing other engineers' or
 * turbo's writes to packages/core/dist. Type declarations are skipped: they do not run.
 */
export async function buildCore(): Promise<CoreBuild> {
  const outDir = await mkdtemp(join(tmpdir(), 'catalogkit-runtimes-'));
  const tsupCli = join(require.resolve('tsup/package.json'), '..', 'dist', 'cli-default.js');
  await run(process.execPath, [tsupCli, '--no-dts', '--silent', '--out-dir', outDir], {
    cwd: CORE_DIR,
  });
  return {
    esm: join(outDir, 'index.js'),
    cjs: join(outDir, 'index.cjs'),
    outDir,
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}

/** Points `@catalogkit/core` at the built bundle instead of the workspace sources. */
function coreFromBuild(coreEsm: string): Plugin {
  return {
    name: 'core-from-build',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^@catalogkit\/core$/ }, () => ({ path: coreEsm }));
    },
  };
}

/** How a fixture is bundled for a runtime. */
export interface FixtureBundleOptions {
  /** A file in test/runtimes/fixtures, e.g. `run-cli.mjs`. */
  entry: string;
  /** Where to write the bundle. */
  outfile: string;
  format: 'esm' | 'iife';
}

/**
 * Bundles a fixture with the built core and its dependencies (zod, eventsource-parser) into
 * one self-contained file, the way an edge worker or a browser app ships it. The `neutral`
 * platform resolves no Node built-in, so a `node:` import anywhere fails the build.
 */
export async function bundleFixture(core: CoreBuild, options: FixtureBundleOptions) {
  await build({
    entryPoints: [join(FIXTURES_DIR, options.entry)],
    outfile: options.outfile,
    bundle: true,
    format: options.format,
    platform: 'neutral',
    // 'neutral' reads no main field by default; these are what browser bundlers read.
    mainFields: ['module', 'main'],
    // The integration package has zod; core's eventsource-parser resolves from core.
    nodePaths: [join(CORE_DIR, 'node_modules')],
    target: 'es2022',
    logLevel: 'silent',
    plugins: [coreFromBuild(core.esm)],
  });
  return options.outfile;
}

/** A fixture's absolute path (for the negative controls). */
export function fixturePath(name: string): string {
  return join(FIXTURES_DIR, name);
}
