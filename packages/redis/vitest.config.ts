import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * One project per supported major of `ioredis` (a peer dependency: the store uses the
 * user's client). The v5 project aliases every `ioredis` import (src/, tests and the
 * cross-process fixture through CATALOGKIT_IOREDIS) to the `ioredis-v5` dev dependency; the
 * suite asserts which version it ran on.
 */
function ioredisProject(
  name: string,
  major: number,
  aliasTo?: string,
): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      env: { CATALOGKIT_IOREDIS: aliasTo ?? 'ioredis', CATALOGKIT_IOREDIS_MAJOR: String(major) },
    },
    resolve: {
      alias: aliasTo ? [{ find: /^ioredis(\/.*)?$/, replacement: `${aliasTo}$1` }] : [],
    },
  };
}

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [ioredisProject('ioredis-v6', 6), ioredisProject('ioredis-v5', 5, 'ioredis-v5')],
  },
});
