import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { flowForAi6 } from './test/support/flows-for-ai-6.js';

/**
 * The flows run on the newest `ai` of the workspace. On the lowest versions the peer range
 * admits, bare imports are aliased so the flow, the adapter and the test all run on that
 * version (each test file asserts which one it got): the route, written for every major, on
 * 5.0.277 with `@ai-sdk/openai` 2.x; the approval flows (approval arrived in 6) on 6.0.0 with
 * `@ai-sdk/openai` 3.x, as the README tells an ai 6 user to write them.
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

const lowestWithApproval: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'ai-6.0.0',
    include: ['test/approval.test.ts'],
    env: { DOCS_TESTS_AI_MAJOR: '6' },
  },
  resolve: {
    alias: [
      { find: /^ai$/, replacement: 'ai-v6-0' },
      { find: /^@ai-sdk\/openai$/, replacement: 'ai-sdk-openai-v3' },
    ],
  },
  plugins: [
    {
      name: 'approval-flows-for-ai-6',
      enforce: 'pre',
      transform(code, id) {
        return /flows\/approve-(generate|stream)\.ts$/.test(id) ? flowForAi6(code, id) : undefined;
      },
    },
  ],
};

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: {
    // Isolated, unlike the other packages: each flow is a module that reads its settings at
    // import, as the README's snippets do, so every file needs its own copy of them.
    isolate: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'ai-newest', env: { DOCS_TESTS_AI_MAJOR: '7' } } },
      lowest,
      lowestWithApproval,
    ],
  },
});
