import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const workspaceDir = join(packageDir, '../..');
const FIXTURE = 'packages/redis/test/fixtures/shared-session-process.ts';
/** The client packages: loaded by name at run time, from the package, as the suite loads them. */
const CLIENTS = ['ioredis', 'ioredis-v5', 'redis', 'redis-v5', '@upstash/redis'];

/** What the bundle is built from: the fixture, the sources it imports, manifests, lockfile. */
function fixtureSources(): string[] {
  const under = (dir: string) =>
    readdirSync(join(workspaceDir, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .map((name) => join(dir, name));
  return [
    FIXTURE,
    'packages/redis/test/support/targets.ts',
    ...under('packages/redis/src'),
    ...under('packages/core/src'),
    'packages/redis/package.json',
    'packages/core/package.json',
    'pnpm-lock.yaml',
  ];
}

let built: Promise<string> | undefined;

/**
 * The cross-process fixture and the sources it imports (the store, core), bundled into one ES
 * module once per change of those sources: cached under their hash two folders below the
 * package (node_modules/.cache-<hash>/), so the client packages resolve from the package and
 * targets.ts finds their manifests as it does from its own folder. Through tsx each of the
 * suite's fixture processes spent about 2.5 CPU-s compiling the same sources.
 */
export function fixtureEntry(): Promise<string> {
  built ??= (async () => {
    const hash = createHash('sha256');
    for (const file of fixtureSources()) {
      hash
        .update(`${file}\0`)
        .update(readFileSync(join(workspaceDir, file)))
        .update('\0');
    }
    const dir = join(
      packageDir,
      'node_modules',
      `.cache-fixture-${hash.digest('hex').slice(0, 16)}`,
    );
    const outfile = join(dir, 'shared-session-process.mjs');
    if (existsSync(outfile)) return outfile;
    mkdirSync(dir, { recursive: true });
    // Written beside, then renamed: a file running in parallel never starts half a bundle.
    const partial = join(dir, `fixture.${process.pid}.${Date.now()}.mjs`);
    await build({
      entryPoints: [join(workspaceDir, FIXTURE)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      conditions: ['@catalogkit/source'],
      external: CLIENTS,
      outfile: partial,
      logLevel: 'warning',
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    renameSync(partial, outfile);
    return outfile;
  })();
  return built;
}
