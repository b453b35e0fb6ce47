import { defineConfig } from 'tsup';

const shared = { dts: true, sourcemap: true, target: 'es2022' } as const;

export default defineConfig([
  // The library: ESM and CommonJS, so `require('@catalogkit/emulator')` works in CJS test suites.
  { ...shared, entry: ['src/index.ts'], format: ['esm', 'cjs'], clean: true },
  // The CLI is run, never imported: ESM only (`npx @catalogkit/emulator` runs dist/cli.js).
  { ...shared, entry: ['src/cli.ts'], format: ['esm'], dts: false },
]);
