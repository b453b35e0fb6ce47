import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type PackageManifest, repoRoot } from './workspace.js';

interface PnpmHooks {
  hooks: { beforePacking(manifest: PackageManifest): PackageManifest };
}

/**
 * The package.json as `pnpm pack`/`pnpm publish` writes it into the tarball: the workspace's
 * own `.pnpmfile.cjs` hook applied to a copy (the same code the release runs).
 */
export function publishManifest(manifest: PackageManifest): PackageManifest {
  const require = createRequire(import.meta.url);
  const { hooks } = require(join(repoRoot, '.pnpmfile.cjs')) as PnpmHooks;
  return hooks.beforePacking(structuredClone(manifest));
}

/** Every file path an `exports` map points at (all subpaths and conditions). */
export function exportTargets(exportsField: unknown): string[] {
  if (typeof exportsField === 'string') return [exportsField];
  if (Array.isArray(exportsField)) return exportsField.flatMap(exportTargets);
  if (exportsField === null || typeof exportsField !== 'object') return [];
  return Object.values(exportsField).flatMap(exportTargets);
}
