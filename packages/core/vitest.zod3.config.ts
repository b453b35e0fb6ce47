import { createRequire } from 'node:module';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

// Runs the suites of the code that calls zod (the wire schemas and answer parsing, tool input,
// conversations, the collection guard's input) with zod 3.25 (its `zod/v4` entry) in place of
// zod 4, to prove the peer range `^3.25.76 || ^4.1.8`. `zod3` is a dev alias: `npm:zod@3.25.76`.
// The payment, secrets, store, token-clock and retry suites import no zod, so they run once.
const require = createRequire(import.meta.url);

export default mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: [
        { find: /^zod\/v4$/, replacement: require.resolve('zod3/v4') },
        { find: /^zod\/v4\/core$/, replacement: require.resolve('zod3/v4/core') },
        { find: /^zod\/v4\/mini$/, replacement: require.resolve('zod3/v4/mini') },
      ],
    },
    test: {
      include: [
        'test/{client,tools,validation,schema-check,updates,conversations,collection-guard,zod-version,tokens-odd-answers}*.test.ts',
      ],
      env: { CATALOGKIT_ZOD: '3' },
    },
  }),
);
