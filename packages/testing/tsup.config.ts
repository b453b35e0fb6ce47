import { defineConfig } from 'tsup';

const shared = { sourcemap: true, target: 'es2022' } as const;

export default defineConfig([
  // ESM: the library and the CLI (`npx @catalogkit/testing check` runs dist/cli.js), sharing chunks.
  {
    ...shared,
    entry: ['src/index.ts', 'src/cli.ts'],
    format: ['esm'],
    dts: { entry: 'src/index.ts' },
    clean: true,
  },
  // CommonJS, so jest suites in CommonJS can require the library too.
  { ...shared, entry: ['src/index.ts'], format: ['cjs'], dts: { entry: 'src/index.ts' } },
]);
