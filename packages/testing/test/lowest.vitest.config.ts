// The version suite on the lowest line (see lines.ts): `vitest run --config test/lowest.vitest.config.ts`.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../vitest.config.js';
import { LOWEST_INLINE, lowestLine } from './lines.js';

export default mergeConfig(
  base,
  defineConfig({
    plugins: [lowestLine()],
    test: {
      name: 'lowest',
      include: ['test/versions.test.ts'],
      provide: { line: 'lowest' },
      server: { deps: { inline: LOWEST_INLINE } },
    },
  }),
);
