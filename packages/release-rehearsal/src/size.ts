import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { PackageManifest } from './workspace.js';

/** A package's bundle size: its ESM entry, minified, with every dependency external. */
export interface SizeReport {
  name: string;
  minified: number;
  gzipped: number;
  /** Budget for the gzipped size, from size-budget.json. */
  budget: number | undefined;
}

/** Budgets in bytes (min+gz), one file for every package: size-budget.json beside src/. */
export function readBudgets(file: string): Record<string, number> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { budgets: Record<string, number> };
  return parsed.budgets;
}

/** Budgets in bytes (min+gz) of whole pages, everything they pull in: size-budget.json `pages`. */
export function readPageBudgets(file: string): Record<string, number> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pages: Record<string, number> };
  return parsed.pages;
}

/**
 * A package's entry measured WITH some of its dependencies bundled in (a parser it cannot ship
 * without, e.g. `@catalogkit/links` with markdown-it): size-budget.json `parserDependencies`,
 * keyed by package, each with the dependencies bundled, the last measurement and the budget.
 */
export interface BundledBudget {
  bundled: string[];
  measured: number;
  budget: number;
}

/** size-budget.json `parserDependencies`: the budgets of entries measured with their parser. */
export function readBundledBudgets(file: string): Record<string, BundledBudget> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as {
    parserDependencies?: Record<string, BundledBudget>;
  };
  return parsed.parserDependencies ?? {};
}

/** True when a size is past its budget, or has none: the rehearsal fails. */
export function overBudget(size: SizeReport): boolean {
  return size.budget === undefined || size.gzipped > size.budget;
}

/** Bytes of a bundle as shipped: minified, and gzipped at level 9. */
export interface BundleSize {
  minified: number;
  gzipped: number;
}

/** The size of `code`, gzipped as a server would at its best level. */
export function sizeOf(code: Uint8Array): BundleSize {
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

/**
 * What a page that runs `entry` (module source, e.g. `export { X } from 'pkg'`, resolved from
 * `resolveDir`) ships: bundled for a browser as an application bundler would, minified, with
 * EVERY dependency inside (zod included), unused code shaken out. What is exported from the
 * entry counts as used.
 */
export async function measurePage(entry: string, resolveDir: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: entry, resolveDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return sizeOf(result.outputFiles[0]?.contents ?? new Uint8Array());
}

/**
 * Bundles the built ESM entry of the package in `dir` the way an application bundler would,
 * minified, with its dependencies and peers (zod, the frameworks, other @catalogkit packages)
 * external: what the package itself adds to an application. The dependencies in `bundled`
 * (and everything they import) are bundled in instead, and named in the report.
 */
export async function measure(
  dir: string,
  manifest: PackageManifest,
  budget: number | undefined,
  bundled: readonly string[] = [],
): Promise<SizeReport> {
  const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
    .filter((name) => !bundled.includes(name))
    .flatMap((name) => [name, `${name}/*`]);
  const result = await build({
    entryPoints: [join(dir, 'dist', 'index.js')],
    bundle: true,
    minify: true,
    format: 'esm',
    // A bundled dependency is resolved as for a browser page (`main` fields too, which a
    // neutral build does not read: markdown-it's punycode.js has only `main`).
    platform: bundled.length > 0 ? 'browser' : 'neutral',
    target: 'es2022',
    write: false,
    // tsup writes Node built-ins without the node: prefix (`crypto`), so both spellings.
    external: [...external, ...builtinModules, 'node:*'],
    logLevel: 'silent',
  });
  return {
    name: bundled.length > 0 ? `${manifest.name} with ${bundled.join(', ')}` : manifest.name,
    ...sizeOf(result.outputFiles[0]?.contents ?? new Uint8Array()),
    budget,
  };
}
