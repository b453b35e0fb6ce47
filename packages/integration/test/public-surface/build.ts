import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CORE_DIR } from './entries.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** A fresh build of core's entries (ESM, CommonJS, source maps) in a temporary folder. */
export interface EntriesBuild {
  outDir: string;
  /** Absolute path of a built file named as package.json does (`./dist/errors/index.js`). */
  file(distPath: string): string;
  /** Deletes the folder. */
  remove(): Promise<void>;
}

/**
 * Builds core with its own tsup config (every entry, both formats, `splitting`) without type
 * declarations, into a folder under this package's node_modules: the bundles' `zod` imports
 * resolve from there as they would in an application, and git and Biome ignore it. The
 * folder gets core's `type` and `sideEffects`, as the published package has them.
 */
export async function buildEntries(): Promise<EntriesBuild> {
  const parent = fileURLToPath(new URL('../../node_modules/.public-surface/', import.meta.url));
  await mkdir(parent, { recursive: true });
  const outDir = await mkdtemp(parent);
  const tsupCli = join(require.resolve('tsup/package.json'), '..', 'dist', 'cli-default.js');
  await run(process.execPath, [tsupCli, '--no-dts', '--silent', '--out-dir', outDir], {
    cwd: CORE_DIR,
  });
  // The fields of core's package.json that bundlers read for these files: the module type,
  // and `sideEffects`, the promise that lets them drop a module nothing uses.
  const manifest = JSON.parse(await readFile(join(CORE_DIR, 'package.json'), 'utf8')) as {
    type?: string;
    sideEffects?: unknown;
  };
  const { type, sideEffects } = manifest;
  await writeFile(join(outDir, 'package.json'), JSON.stringify({ type, sideEffects }));
  return {
    outDir,
    file: (distPath) => join(outDir, distPath.replace(/^\.\/dist\//, '')),
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}
