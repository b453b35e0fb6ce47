// pnpm hooks for this workspace. pnpm-lock.yaml records this file's checksum: after changing
// it, run `pnpm install` and commit the lockfile (a frozen install refuses a stale checksum).
//
// Workspace packages export a "@catalogkit/source" condition that points at their TypeScript
// sources, so tests, examples and the demo need no build. Those sources are not published, so
// the condition is removed from the packed package.json (`pnpm pack` / `pnpm publish`): every
// subpath of "exports", whatever it is, without hand-kept publish-time copies of the map.
'use strict';

const SOURCE_CONDITION = '@catalogkit/source';

/** Returns the exports value without the source condition, at any depth. */
function withoutSourceCondition(value) {
  if (Array.isArray(value)) return value.map(withoutSourceCondition);
  if (value === null || typeof value !== 'object') return value;
  const result = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key !== SOURCE_CONDITION) result[key] = withoutSourceCondition(entry);
  }
  return result;
}

/** The declaration file a subpath's CommonJS (else ESM) condition names, if any. */
function typesOf(entry) {
  for (const condition of ['require', 'import']) {
    const types = entry?.[condition]?.types;
    if (typeof types === 'string') return types;
  }
  return typeof entry?.types === 'string' ? entry.types : undefined;
}

/**
 * TypeScript's legacy `moduleResolution: node` (node10) ignores "exports", so it cannot find
 * the types of a subpath such as `@catalogkit/core/schemas`. `typesVersions` points it there;
 * resolutions that read "exports" (node16, nodenext, bundler) take "exports" first.
 */
function typesVersionsFor(exportsField) {
  if (exportsField === null || typeof exportsField !== 'object') return undefined;
  const paths = {};
  for (const [subpath, entry] of Object.entries(exportsField)) {
    const types = typesOf(entry);
    if (subpath === '.' || !subpath.startsWith('./') || types === undefined) continue;
    paths[subpath.slice(2)] = [types];
  }
  return Object.keys(paths).length > 0 ? { '*': paths } : undefined;
}

/**
 * TypeScript 7 (the workspace's `typescript`, for type-checking) has no compiler API, and tsup 9
 * calls it (`ts.parseJsonConfigFileContent`, then rollup-plugin-dts) for the declaration build:
 * "TypeError: _typescript2.default.parseJsonConfigFileContent is not a function". A peer
 * dependency cannot be overridden (pnpm `overrides` and `packageExtensions` leave peers as
 * they are), so tsup's `typescript` becomes TypeScript 6's API, the compatibility package
 * `@typescript/typescript6`, here.
 */
function withTypeScriptApi(manifest) {
  if (manifest.name !== 'tsup') return manifest;
  if (manifest.peerDependencies) delete manifest.peerDependencies.typescript;
  if (manifest.peerDependenciesMeta) delete manifest.peerDependenciesMeta.typescript;
  manifest.dependencies = {
    ...manifest.dependencies,
    typescript: 'npm:@typescript/typescript6@6.0.2',
  };
  return manifest;
}

module.exports = {
  hooks: {
    readPackage: withTypeScriptApi,
    beforePacking(manifest) {
      if (manifest.exports === undefined) return manifest;
      manifest.exports = withoutSourceCondition(manifest.exports);
      const typesVersions = typesVersionsFor(manifest.exports);
      if (typesVersions !== undefined && manifest.typesVersions === undefined) {
        manifest.typesVersions = typesVersions;
      }
      return manifest;
    },
  },
};
