import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
  },
  {
    // The stdio bin: ESM only; tsup keeps the shebang and marks the file executable.
    entry: ['src/cli.ts'],
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
  },
]);
