import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A strict type-check's errors, split by whose declarations they are in. */
export interface TscErrors {
  /** Errors in the project or in @catalogkit declarations (or with no file): these fail. */
  ours: string[];
  /** Errors inside another package's own declarations, by `name@version`. */
  dependencies: Map<string, string[]>;
}

// `path(line,col): error TSnnnn: message`, as tsc prints when its output is not a terminal.
const ERROR_LINE = /^(?<file>[^\s(][^(]*)\(\d+,\d+\): error TS\d+:/;
const ANY_ERROR = /\berror TS\d+:/;

/** The package a path inside node_modules belongs to (after its last `node_modules/`). */
function packageOf(file: string): { name: string; root: string } | undefined {
  const at = file.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const parts = file.slice(at + 'node_modules/'.length).split('/');
  const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  return name ? { name, root: file.slice(0, at + 'node_modules/'.length) + name } : undefined;
}

function versionOf(dir: string, root: string): string {
  try {
    const manifest = readFileSync(join(dir, root, 'package.json'), 'utf8');
    return (JSON.parse(manifest) as { version?: string }).version ?? '?';
  } catch {
    return '?';
  }
}

/**
 * Reads tsc's output in project `dir`: an error inside a third-party package's own
 * declarations is that package's (an upstream release we cannot fix), reported with its
 * installed version; every other error is ours, @catalogkit declarations included.
 */
export function classifyTscErrors(output: string, dir: string): TscErrors {
  const result: TscErrors = { ours: [], dependencies: new Map() };
  for (const line of output.split('\n')) {
    if (!ANY_ERROR.test(line)) continue;
    const file = ERROR_LINE.exec(line)?.groups?.file;
    const owner = file ? packageOf(file) : undefined;
    if (!owner || owner.name.startsWith('@catalogkit/')) {
      result.ours.push(line);
      continue;
    }
    const key = `${owner.name}@${versionOf(dir, owner.root)}`;
    result.dependencies.set(key, [...(result.dependencies.get(key) ?? []), line]);
  }
  return result;
}

/** One line naming each dependency whose own declarations failed, e.g. for a report. */
export function describeDependencyErrors(dependencies: TscErrors['dependencies']): string {
  return [...dependencies]
    .map(
      ([pkg, lines]) =>
        `${pkg} own declarations (${lines.length} error${lines.length === 1 ? '' : 's'}): ${lines[0]}`,
    )
    .join('\n');
}
