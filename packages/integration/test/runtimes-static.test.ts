import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreEntries } from './public-surface/entries.js';
import { buildCore, CORE_DIR, type CoreBuild, fixturePath } from './runtimes/build-core.js';
import { findNodeApiUses } from './runtimes/node-api-uses.js';

// Issue 2 ("Runtimes"): core uses only web-standard APIs at run time. These checks read the
// code; runtimes-edge and runtimes-bun-deno run it.

let core: CoreBuild;
// The hook builds core: allow more than vitest's 10 s default on a busy 2-core CI machine.
beforeAll(async () => {
  core = await buildCore();
}, 90_000);
afterAll(() => core?.remove());

async function declaredRuntimeDependencies(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(CORE_DIR, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  return Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
}

/** `zod/v4` → `zod`, `@scope/name/sub` → `@scope/name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

describe('core reads no Node API (static check of sources and the fresh build)', () => {
  // Every entry (the root and each subpath), since a subpath's code is not reachable from
  // the root.
  const entries = coreEntries();
  const built = (distPath: string) => join(core.outDir, distPath.replace(/^\.\/dist\//, ''));

  it.each(
    entries.flatMap((entry) => [
      [`the sources of ${entry.specifier} (and everything they import)`, () => entry.source],
      [`the built ESM bundle of ${entry.specifier} (${entry.esm})`, () => built(entry.esm)],
    ]),
  )('%s: no Node built-in import, no unguarded Node global', async (_, entry) => {
    const uses = await findNodeApiUses(entry());
    expect(uses.builtinImports).toEqual([]);
    expect(uses.unguardedGlobals).toEqual([]);
  });

  it.each(entries)(
    'the built CommonJS bundle of $specifier requires no Node built-in',
    async (entry) => {
      const uses = await findNodeApiUses(built(entry.cjs), false);
      expect(uses.builtinImports).toEqual([]);
    },
  );

  it('the bundles import only the declared dependencies (zod, eventsource-parser)', async () => {
    const declared = await declaredRuntimeDependencies();
    const imported = new Set<string>();
    for (const bundle of entries.flatMap((entry) => [built(entry.esm), built(entry.cjs)])) {
      const { bareImports } = await findNodeApiUses(bundle, false);
      for (const specifier of bareImports) imported.add(packageName(specifier));
    }
    // Some entries import no package at all (the errors); together they do import zod.
    expect([...imported]).toContain('zod');
    for (const name of imported) expect(declared).toContain(name);
  });
});

describe('the static check can fail (negative controls)', () => {
  it('finds a node: import and free reads of process, Buffer and __dirname', async () => {
    const uses = await findNodeApiUses(fixturePath('uses-node-apis.mjs'));
    expect(uses.builtinImports).toEqual(['node:fs']);
    expect(uses.unguardedGlobals).toEqual(['Buffer', '__dirname', 'process']);
  });

  it('finds a built-in required from CommonJS', async () => {
    const uses = await findNodeApiUses(fixturePath('uses-node-apis.cjs'), false);
    expect(uses.builtinImports).toEqual(['path']);
  });
});
