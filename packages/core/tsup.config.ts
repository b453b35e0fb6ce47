import { defineConfig } from 'tsup';

/** The package's entries: the root and one subpath per area (package.json `exports`). */
const SUBPATHS = ['conversations', 'errors', 'payment', 'schemas', 'tools'];

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    ...Object.fromEntries(SUBPATHS.map((name) => [`${name}/index`, `src/${name}/index.ts`])),
  },
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too (ESM splits by default): each class exists once, so an
  // error thrown through the root is `instanceof` the class required from `./errors`.
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
