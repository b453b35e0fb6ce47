import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The repository's root: source lists are relative to it. */
export const workspaceDir = fileURLToPath(new URL('../../../..', import.meta.url));

/** The `.ts` files under each folder (relative to the root), sorted, and the `files` given. */
export function sourcesOf(folders: readonly string[], files: readonly string[] = []): string[] {
  return [
    ...folders.flatMap((folder) =>
      readdirSync(join(workspaceDir, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .sort()
        .map((name) => join(folder, name)),
    ),
    ...files,
    'pnpm-lock.yaml',
  ];
}

export interface BundleOnceOptions {
  /** The TypeScript entry, absolute. */
  entry: string;
  /** What the bundle is built from, relative to the root: a change of any rebuilds it. */
  sources: readonly string[];
  /** Where bundles are kept, each in a folder `.bundle-<hash of sources>` directly under it. */
  cacheDir: string;
  /** The bundle's file name, e.g. `cli.mjs`. */
  name: string;
  /** Packages loaded at run time from beside the bundle instead of bundled. */
  external?: string[];
}

/**
 * `entry` and the workspace sources it imports (`@catalogkit/source`) bundled into one ES
 * module, as tsup ships a bin, once per change of `sources`: cached under their hash, so
 * every test file and run until a source changes starts the same file with plain Node.
 * Through tsx each start spent 2-3 s of CPU compiling the same sources.
 */
export async function bundleOnce(options: BundleOnceOptions): Promise<string> {
  const hash = createHash('sha256');
  for (const file of options.sources) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(workspaceDir, file)))
      .update('\0');
  }
  const dir = join(options.cacheDir, `.bundle-${hash.digest('hex').slice(0, 16)}`);
  const outfile = join(dir, options.name);
  if (existsSync(outfile)) return outfile;
  mkdirSync(dir, { recursive: true });
  // Written beside, then renamed: a file running in parallel never starts half a bundle.
  const partial = join(dir, `${process.pid}.${Date.now()}.${options.name}`);
  await build({
    entryPoints: [options.entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    conditions: ['@catalogkit/source'],
    external: options.external ?? [],
    outfile: partial,
    logLevel: 'warning',
    // Some dependencies are CommonJS: their `require` calls need one in the module.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  renameSync(partial, outfile);
  return outfile;
}
