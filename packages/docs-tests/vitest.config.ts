import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The flows run on the newest `ai` of the workspace, and those written for every major on the
 * lowest the adapter's peer range admits (5.0.277 with `@ai-sdk/openai` 2.x): that project
 * aliases the bare imports, so the flow, the adapter and the test all run on that version
 * (each test file asserts which one it got).
 */
const lowest: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'ai-lowest',
    include: ['test/next-route.test.ts', 'test/build-time.test.ts'],
    env: { DOCS_TESTS_AI_MAJOR: '5' },
  },
  resolve: {
    alias: [
      { find: /^ai$/, replacement: 'ai-v5' },
      { find: /^@ai-sdk\/openai$/, replacement: 'ai-sdk-openai-v2' },
    ],
  },
};

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'ai-newest', env: { DOCS_TESTS_AI_MAJOR: '7' } } },
      lowest,
    ],
  },
});
