import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * One project per supported major of `ai`. The v5 and v6 projects alias the bare `ai`
 * import to the aliased dev dependency, so the adapter under test (src/) runs on that
 * version, not only the test file; each test file asserts the alias took effect.
 */
function aiProject(name: string, aliasTo?: string): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: { name, include: [`test/*.${name}.test.ts`] },
    resolve: { alias: aliasTo ? [{ find: /^ai$/, replacement: aliasTo }] : [] },
  };
}

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: {
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      aiProject('ai-v5', 'ai-v5'),
      aiProject('ai-v6-0', 'ai-v6-0'),
      aiProject('ai-v6', 'ai-v6'),
      aiProject('ai-v7'),
    ],
  },
});
