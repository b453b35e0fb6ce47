import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundleOnce,
  sourcesOf,
  workspaceDir,
} from '../../../integration/test/support/bundle-once.js';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = 'packages/redis/test/fixtures/shared-session-process.ts';

let built: Promise<string> | undefined;

/**
 * The cross-process fixture and the sources it imports (the store, core), bundled once per
 * change of those sources, under the package's node_modules so the client packages (left out
 * of the bundle, loaded by name as the suite loads them) resolve from the package, and
 * targets.ts finds their manifests as it does from its own folder.
 */
export function fixtureEntry(): Promise<string> {
  built ??= bundleOnce({
    entry: join(workspaceDir, FIXTURE),
    sources: sourcesOf(
      ['packages/redis/src', 'packages/core/src'],
      [
        FIXTURE,
        'packages/redis/test/support/targets.ts',
        'packages/redis/package.json',
        'packages/core/package.json',
      ],
    ),
    // Two folders below the package, as the fixture is: targets.ts reads manifests relatively.
    cacheDir: join(packageDir, 'node_modules'),
    name: 'shared-session-process.mjs',
    external: ['ioredis', 'ioredis-v5', 'redis', 'redis-v5', '@upstash/redis'],
  });
  return built;
}
