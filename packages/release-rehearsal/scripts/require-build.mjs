#!/usr/bin/env node
/**
 * The `prepack` script of every public package (`pnpm pack`, `pnpm publish`, `npm pack`): stops
 * the packing, naming what is missing, when a file the package.json points at (exports, main,
 * types) is not there, i.e. the package was not built. Without it, `pnpm -r pack` before
 * `pnpm build` silently packs tarballs with only LICENSE, package.json and README, and installing
 * one fails with ERR_MODULE_NOT_FOUND. Plain JavaScript, run by whatever `node` packs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Condition pointing at TypeScript sources; removed from the published package.json. */
const SOURCE_CONDITION = '@catalogkit/source';

/**
 * Every file path an exports value points at, without the source condition.
 * @param {unknown} value
 * @returns {string[]}
 */
function exportTargets(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, entry]) =>
    key === SOURCE_CONDITION ? [] : exportTargets(entry),
  );
}

/**
 * The files the package.json in `dir` points at (exports, main, types, bin) that do not exist.
 * @param {string} dir
 * @returns {{ name: string, missing: string[] }}
 */
export function missingBuildFiles(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const bins =
    typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  const files = [...exportTargets(manifest.exports), manifest.main, manifest.types, ...bins];
  const wanted = [...new Set(files.filter((file) => typeof file === 'string'))];
  return {
    name: String(manifest.name),
    missing: wanted.filter((file) => !existsSync(join(dir, file))),
  };
}

function main() {
  const { name, missing } = missingBuildFiles(process.cwd());
  if (missing.length === 0) return;
  process.stderr.write(
    `${name} is not built: the tarball would hold no code (missing ${missing.join(', ')}).\n` +
      'Run `pnpm build` at the repository root first, then pack again.\n',
  );
  process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
