import { defineConfig } from 'vitest/config';

// Browser tests start Chromium and real servers: run the files one after another and allow
// time for busy CI machines (conditions are awaited, never fixed sleeps).
export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: { isolate: false, testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false },
});
