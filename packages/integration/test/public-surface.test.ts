import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntries, type EntriesBuild } from './public-surface/build.js';
import { bundleNames, moduleLevelCode } from './public-surface/bundled-sources.js';
import {
  CORE_DIR,
  coreEntries,
  type ExportedName,
  exportedNames,
} from './public-surface/entries.js';

// Issue 28: a root people can learn (at most 45 run-time names), one subpath per area for
// what only some users need, TSDoc on every public name, and module-level code bundlers can
// drop, so an application pays only for what it imports.

const ROOT_RUNTIME_LIMIT = 45;
const entries = coreEntries();
const names = exportedNames(entries.map((entry) => entry.source));
const namesOf = (subpath: string): ExportedName[] => {
  const entry = entries.find((candidate) => candidate.subpath === subpath);
  return (entry && names.get(entry.source)) ?? [];
};
const runtimeNames = (subpath: string) =>
  namesOf(subpath)
    .filter((name) => name.runtime)
    .map((name) => name.name)
    .sort();

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the entries of @catalogkit/core', () => {
  it('are the root and one subpath per area, each with its source file', () => {
    expect(entries.map((entry) => entry.subpath)).toEqual([
      '.',
      './conversations',
      './errors',
      './payment',
      './schemas',
      './tools',
    ]);
    for (const entry of entries) expect(existsSync(entry.source), entry.source).toBe(true);
  });

  it('each lists its names explicitly (no `export *`)', () => {
    for (const entry of entries) {
      expect(readFileSync(entry.source, 'utf8'), entry.subpath).not.toMatch(/export\s+\*/);
    }
  });

  it('every name of every entry has TSDoc on its declaration', () => {
    const undocumented = entries.flatMap((entry) =>
      namesOf(entry.subpath)
        .filter((name) => name.doc === '')
        .map((name) => `${entry.specifier}: ${name.name} (${name.declaredIn})`),
    );
    expect(undocumented).toEqual([]);
  });

  it(`the root has at most ${ROOT_RUNTIME_LIMIT} run-time names, the ones the compiler sees`, async () => {
    const root = await import('@catalogkit/core');
    const atRunTime = Object.keys(root).sort();
    expect(atRunTime.length).toBeGreaterThan(0);
    expect(atRunTime.length).toBeLessThanOrEqual(ROOT_RUNTIME_LIMIT);
    expect(atRunTime).toEqual(runtimeNames('.'));
  });

  it('every run-time name of the root but the client is also in the subpath of its area', async () => {
    const root: Record<string, unknown> = await import('@catalogkit/core');
    const subpaths = await Promise.all(
      entries
        .filter((entry) => entry.subpath !== '.')
        .map(async (entry) => (await import(entry.specifier)) as Record<string, unknown>),
    );
    const rootOnly = Object.keys(root).filter(
      (name) => !subpaths.some((subpath) => subpath[name] === root[name]),
    );
    expect(rootOnly).toEqual(['CatalogClient']);
  });

  it('the errors entry has every error class of core, each a CatalogError, and the echo check', async () => {
    const { secretEchoesIn, ...errors } = await import('@catalogkit/core/errors');
    expect(typeof secretEchoesIn).toBe('function');
    for (const [name, value] of Object.entries(errors)) {
      const isCatalogError =
        value === errors.CatalogError || value.prototype instanceof errors.CatalogError;
      expect(isCatalogError, name).toBe(true);
      // Its own brand, so `is()` recognises it across copies of the package.
      expect(Object.hasOwn(value, 'kind') && value.kind, name).toBe(name);
    }
    // Every class declared anywhere in core's sources that extends an error class.
    const declared = sourceFiles(join(CORE_DIR, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/export class (\w+) extends \w*Error\b/g)].map(
        (match) => match[1],
      ),
    );
    expect(declared.length).toBeGreaterThan(10);
    expect(Object.keys(errors).sort()).toEqual([...new Set(declared)].sort());
  });
});

describe('the adapters re-export the errors entry', () => {
  const adapterFile = (name: string) =>
    fileURLToPath(new URL(`../../${name}/src/index.ts`, import.meta.url));
  const adapters = ['ai-sdk', 'langchain', 'openai-agents'];
  const adapterNames = exportedNames(adapters.map(adapterFile));

  it.each(adapters)(
    '@catalogkit/%s: every class of @catalogkit/core/errors, the same declarations',
    (adapter) => {
      // The error classes (the entry's echo check is not re-exported).
      const errors = namesOf('./errors').filter(
        (name) => name.runtime && name.name !== 'secretEchoesIn',
      );
      const exported = adapterNames.get(adapterFile(adapter)) ?? [];
      const missing = errors.filter(
        (error) =>
          !exported.some(
            (name) => name.name === error.name && name.declaredIn === error.declaredIn,
          ),
      );
      expect(errors.length).toBeGreaterThan(10);
      expect(missing.map((name) => name.name)).toEqual([]);
    },
  );
});

describe('the built entries (tsup, as published)', () => {
  let core: EntriesBuild;
  // The hook builds core: allow more than vitest's default on a busy 2-core machine.
  beforeAll(async () => {
    core = await buildEntries();
  }, 120_000);
  afterAll(() => core?.remove());

  const built = (distPath: string) => core.file(distPath);

  it('every entry has its ESM and CommonJS file, with the source names at run time', async () => {
    const require = createRequire(import.meta.url);
    for (const entry of entries) {
      const esm = (await import(built(entry.esm))) as Record<string, unknown>;
      const cjs = require(built(entry.cjs)) as Record<string, unknown>;
      expect(Object.keys(esm).sort(), entry.subpath).toEqual(runtimeNames(entry.subpath));
      expect(Object.keys(cjs).sort(), entry.subpath).toEqual(runtimeNames(entry.subpath));
    }
  });

  it('one class per error whichever entry it comes from, in ESM and in CommonJS', async () => {
    const require = createRequire(import.meta.url);
    const load = {
      esm: async (subpath: string) =>
        (await import(built(entries.find((entry) => entry.subpath === subpath)!.esm))) as Record<
          string,
          new (
            ...args: never[]
          ) => unknown
        >,
      cjs: async (subpath: string) =>
        require(built(entries.find((entry) => entry.subpath === subpath)!.cjs)) as Record<
          string,
          new (
            ...args: never[]
          ) => unknown
        >,
    };
    for (const format of ['esm', 'cjs'] as const) {
      const root = await load[format]('.');
      const errors = await load[format]('./errors');
      const tools = await load[format]('./tools');
      expect(root.RateLimitError, format).toBe(errors.RateLimitError);
      expect(root.CatalogError, format).toBe(errors.CatalogError);
      expect(root.createCatalogToolList, format).toBe(tools.createCatalogToolList);
      const thrown = new root.ConfigurationError!(...(['no key'] as never[]));
      expect(thrown, format).toBeInstanceOf(errors.ConfigurationError!);
      expect(thrown, format).toBeInstanceOf(errors.CatalogError!);
    }
  });

  describe('importing a few names pulls in only their own modules (tree shaking)', () => {
    const entryFile = (subpath: string) =>
      built(entries.find((entry) => entry.subpath === subpath)!.esm);
    const outside = (sources: string[], allowed: RegExp) =>
      sources.filter((source) => !allowed.test(source));

    it('finds the modules a bundle holds (the check can fail)', async () => {
      const { sources } = await bundleNames(entryFile('.'), ['CatalogClient']);
      expect(sources).toContain('client.ts');
      expect(sources).toContain('errors/api-errors.ts');
      expect(sources.some((source) => source.startsWith('http/'))).toBe(true);
    });

    it.each([
      ['.', ['CatalogError'], /^errors\/catalog-error\.ts$/],
      ['./errors', ['RateLimitError', 'TimeoutError'], /^errors\//],
      ['./tools', ['formatMinorUnits'], /^tools\/money\.ts$/],
      [
        './conversations',
        ['ConversationTokenManager'],
        // The token manager's default store is the memory store; a failing store is named by
        // store-call's one StoreUnavailableError mapping, a store lacking a method by catalog-store.
        /^(conversations\/|errors\/|store\/(catalog-store|memory-store|read-through|store-call)\.ts$|async\.ts$|is-record\.ts$)/,
      ],
    ] as const)('%s { %s }', async (subpath, imported, allowed) => {
      const { sources } = await bundleNames(entryFile(subpath), imported);
      expect(sources.length).toBeGreaterThan(0);
      expect(outside(sources, allowed)).toEqual([]);
    });
  });
});

describe('module-level code is pure, so `sideEffects: false` holds', () => {
  const fixture = (name: string) =>
    new URL(`./fixtures/module-level/${name}`, import.meta.url).pathname;

  it('finds a module-level statement a bundler must keep (the check can fail)', async () => {
    expect(await moduleLevelCode(fixture('impure.ts'))).toContain('new Set');
    expect(await moduleLevelCode(fixture('pure.ts'))).toBe('');
  });

  it('no source file of core keeps code when nothing it exports is used', async () => {
    const kept: Record<string, string> = {};
    for (const file of sourceFiles(join(CORE_DIR, 'src'))) {
      const code = await moduleLevelCode(file);
      if (code !== '') kept[file.replace(`${CORE_DIR}src/`, '')] = code.slice(0, 160);
    }
    expect(kept).toEqual({});
  }, 120_000);
});
