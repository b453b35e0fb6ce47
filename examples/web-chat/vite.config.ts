import { defaultClientConditions, defineConfig } from 'vite';

// Workspace packages resolve to their TypeScript sources (no build of core needed).
// React's JSX is compiled by esbuild (tsconfig "jsx": "react-jsx"); no plugin is needed.
export default defineConfig({
  resolve: { conditions: ['@catalogkit/source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      // Harmless notes from dependencies ("use client" in swr, comment positions in zod).
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'INVALID_ANNOTATION')
          return;
        warn(warning);
      },
    },
  },
});
