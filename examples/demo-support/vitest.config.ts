import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: { isolate: false, testTimeout: 60_000, hookTimeout: 60_000 },
});
