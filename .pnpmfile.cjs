// pnpm hooks for this workspace.
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

module.exports = {
  hooks: {
    beforePacking(manifest) {
      if (manifest.exports !== undefined)
        manifest.exports = withoutSourceCondition(manifest.exports);
      return manifest;
    },
  },
};
