import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * One project per supported line of `@langchain/core`. The 0.3 project aliases every
 * `@langchain/core` import (src/ and tests) to the aliased dev dependency, so the adapter
 * itself runs on 0.3, not only the test file; the shared suite asserts the alias took effect.
 */
function coreProject(name: string, aliasTo?: string): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: { name, include: [`test/*.${name}.test.ts`] },
    resolve: {
      alias: aliasTo ? [{ find: /^@langchain\/core(\/.*)?$/, replacement: `${aliasTo}$1` }] : [],
    },
  };
}

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: {
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [coreProject('core-v1'), coreProject('core-v03', 'langchain-core-03')],
  },
});
