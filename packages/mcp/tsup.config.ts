import { defineConfig } from 'tsup';

export default defineConfig({
  // One build, so `clean` cannot race a second one; src/cli.ts is the stdio bin (tsup keeps
  // its shebang and marks it executable). Only the library entry needs type declarations.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
