import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@catalogkit/source'] },
  ssr: { resolve: { conditions: ['@catalogkit/source'] } },
  // Isolated (vitest's default), unlike the packages: the agent's provider reads
  // OPENAI_BASE_URL when it is imported, and each file points it at its own stand-in.
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
});
