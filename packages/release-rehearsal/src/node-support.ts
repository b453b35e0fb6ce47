import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import semver from 'semver';

/** A package in a runtime dependency tree whose `engines.node` excludes the given Node. */
export interface EngineViolation {
  /** `name@version`, then the chain that pulled it in. */
  path: string;
  engines: string;
}

interface InstalledManifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Finds `name`'s folder as Node would from `fromDir` (node_modules, walking up). */
function installedDir(name: string, fromDir: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Walks the installed runtime dependencies of the package in `packageDir` (transitively,
 * `workspace:` links excluded) and returns every package whose `engines.node` does not admit
 * `nodeVersion`. Missing optional dependencies are skipped; a missing required one is reported.
 */
export function engineViolations(packageDir: string, nodeVersion: string): EngineViolation[] {
  const violations: EngineViolation[] = [];
  const seen = new Set<string>();
  const visit = (dir: string, chain: string[]) => {
    const manifest = JSON.parse(
      readFileSync(join(dir, 'package.json'), 'utf8'),
    ) as InstalledManifest;
    const id = `${manifest.name}@${manifest.version}`;
    if (seen.has(dir)) return;
    seen.add(dir);
    const range = manifest.engines?.node;
    if (chain.length > 0 && range && !semver.satisfies(nodeVersion, range)) {
      violations.push({ path: [id, ...chain].join(' <- '), engines: range });
    }
    const optional = manifest.optionalDependencies ?? {};
    for (const [name, spec] of Object.entries({ ...manifest.dependencies, ...optional })) {
      if (spec.startsWith('workspace:')) continue;
      const child = installedDir(name, dir);
      if (child) visit(child, [id, ...chain]);
      else if (!(name in optional))
        violations.push({ path: `${name} (not installed) <- ${id}`, engines: '?' });
    }
  };
  visit(realpathSync(packageDir), []);
  return violations;
}
