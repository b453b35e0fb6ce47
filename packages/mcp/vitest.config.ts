import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  // Generous: the stdio tests start a Node process with tsx on busy shared cores.
  test: { isolate: false, maxWorkers: 3, testTimeout: 180_000, hookTimeout: 60_000 },
});
