import { defineConfig } from 'vite';

/** One minified ES module: exactly the bundle Foundry loads (system.json "esmodules"). */
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    minify: true,
    target: 'es2022',
    lib: {
      entry: 'src/index.ts',
      formats: ['es'],
      fileName: () => 'ten-segments.js',
    },
    rollupOptions: { output: { codeSplitting: false } },
  },
});
