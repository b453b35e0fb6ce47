import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this package lives in packages/release-rehearsal). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The parts of a package.json the release checks read. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  type?: string;
  keywords?: string[];
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string };
  bugs?: { url?: string };
  engines?: { node?: string };
  files?: string[];
  exports?: unknown;
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A package of the workspace that is published (no `"private": true`). */
export interface PublicPackage {
  /** Folder name under packages/, e.g. `core`. */
  folder: string;
  dir: string;
  manifest: PackageManifest;
}

export function readManifest(dir: string): PackageManifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * Every public package under `packages/` of `root`, found at run time so that a package added
 * later is held to the same checks without anyone listing it.
 */
export function publicPackages(root: string = repoRoot): PublicPackage[] {
  const packagesDir = join(root, 'packages');
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const dir = join(packagesDir, entry.name);
      try {
        const manifest = readManifest(dir);
        return manifest.private ? [] : [{ folder: entry.name, dir, manifest }];
      } catch {
        return []; // a folder without package.json (being created) is not a package yet
      }
    })
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/**
 * Copies the working tree of `root` (tracked and untracked files that git does not ignore:
 * what a clean clone plus your uncommitted changes would hold) into `target`; with `head`,
 * the last commit instead (what a clean clone would hold).
 */
export function copyWorkspace(root: string, target: string, head = false): number {
  if (head) {
    mkdirSync(target, { recursive: true });
    const archive = execFileSync('git', ['archive', '--format=tar', 'HEAD'], {
      cwd: root,
      maxBuffer: 1024 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', target], { input: archive });
    return readdirSync(target).length;
  }
  const listing = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const files = listing.split('\0').filter((file) => file && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(join(root, file), join(target, file));
  }
  return files.length;
}
