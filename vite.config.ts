import { defineConfig } from 'vite';

/**
 * The ES modules Foundry loads (system.json "esmodules": the entry). Each
 * combat procedure is its own chunk, loaded with import() when a world or a
 * combat needs it (src/rules/registry.ts); code shared by the entry and the
 * procedures is in chunks the entry imports. scripts/build.mjs then minifies
 * every file with terser (two compress passes).
 */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    minify: false,
    target: 'es2022',
    lib: {
      entry: 'src/index.ts',
      formats: ['es'],
      fileName: () => 'ten-segments.js',
    },
    rollupOptions: {
      output: {
        chunkFileNames: 'chunks/[name].js',
        // Everything but the procedures and the migration is needed at start-up: one shared chunk beside the entry.
        manualChunks: (id: string) => (/[\\/]src[\\/](rules[\\/]procedures[\\/]|documents[\\/]migration|data[\\/]combat-log-v1)/.test(id) ? undefined : 'core'),
      },
    },
  },
});
