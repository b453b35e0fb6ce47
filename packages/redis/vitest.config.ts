import { defineConfig } from 'vitest/config';

/**
 * Each supported client major is its own dev dependency (`ioredis` 6 and `ioredis-v5`,
 * `redis` 6 and `redis-v5`, `@upstash/redis`), and the shared suite runs once per package,
 * so no aliasing is needed; each run asserts the version it used.
 */
export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  test: {
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
