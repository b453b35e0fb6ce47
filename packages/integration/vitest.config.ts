import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: { isolate: false, maxWorkers: 3, testTimeout: 60_000, hookTimeout: 60_000 },
});
