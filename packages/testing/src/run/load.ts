import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isJson } from '../json.js';

/** Loads a package by name (the provider and adapter packages of the agent's framework). */
export type ModuleLoader = (name: string) => Promise<Record<string, unknown>>;

/**
 * Loads packages the way the kit itself would import them: in a test runner, with its
 * resolver (so a workspace's source conditions apply); installed, from the kit's place
 * (the provider packages are optional peer dependencies, so they are the project's own).
 */
export const importFromKit: ModuleLoader = (name) =>
  import(name) as Promise<Record<string, unknown>>;

/** Conditions given to Node with `--conditions` / `-C` (in argv or NODE_OPTIONS). */
function userConditions(): string[] {
  const args = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const conditions: string[] = [];
  args.forEach((arg, i) => {
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(arg);
    if (inline?.[1]) conditions.push(inline[1]);
    else if ((arg === '--conditions' || arg === '-C') && args[i + 1]) conditions.push(args[i + 1]!);
  });
  return conditions;
}

/** The target of an `exports` value for these conditions (first matching key wins, in order). */
function pickTarget(
  value: unknown,
  conditions: ReadonlySet<string>,
  depth = 0,
): string | undefined {
  if (depth > 8) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = pickTarget(item, conditions, depth + 1);
      if (target) return target;
    }
    return undefined;
  }
  if (!isJson(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!conditions.has(key)) continue;
    const target = pickTarget(item, conditions, depth + 1);
    if (target) return target;
  }
  return undefined;
}

/** The file an ESM `import` of the package's main entry loads. */
function entryOf(packageDir: string, conditions: ReadonlySet<string>): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const { exports } = manifest;
  const root =
    isJson(exports) && Object.keys(exports).some((key) => key.startsWith('.'))
      ? exports['.']
      : exports;
  const target =
    pickTarget(root, conditions) ??
    (typeof manifest.module === 'string' ? manifest.module : undefined) ??
    (typeof manifest.main === 'string' ? manifest.main : 'index.js');
  return join(packageDir, target);
}

/** The package's directory, found as Node does: `node_modules` in each folder up from `from`. */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Loads packages as the module at `file` would import them: found from its folder, entry
 * chosen by the `import` conditions (plus any `--conditions` Node runs with), real path
 * followed. So the CLI gives an agent the same copies of its framework's packages that the
 * agent imports itself, from the user's project, whatever the kit's own place.
 */
export function importFrom(file: string): ModuleLoader {
  const from = dirname(resolve(file));
  const conditions = new Set(['node', 'import', 'module-sync', 'default', ...userConditions()]);
  return async (name) => {
    const dir = packageDir(name, from);
    if (!dir)
      throw new Error(`Cannot find the package ${name} from ${from}: install it in your project`);
    return import(pathToFileURL(entryOf(dir, conditions)).href) as Promise<Record<string, unknown>>;
  };
}
