import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

interface ChunkMeta {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

const ENTRY = fileURLToPath(new URL('src/index.ts', import.meta.url));

/** The modules the entry imports statically, directly or not: what every client loads at start-up (once per build). */
const startUp = new WeakMap<ChunkMeta['getModuleInfo'], Set<string>>();
function atStartUp({ getModuleInfo }: ChunkMeta): Set<string> {
  let seen = startUp.get(getModuleInfo);
  if (seen) return seen;
  seen = new Set<string>();
  const visit = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const next of getModuleInfo(id)?.importedIds ?? []) visit(next);
  };
  visit(ENTRY);
  startUp.set(getModuleInfo, seen);
  return seen;
}

/**
 * Modules the procedures share, grouped by the procedures that use them
 * (bundle budget: each chunk a procedure imports costs its own gzip
 * overhead): seed 002's encumbrance table and the movement rules' helpers
 * (d12-ascending, high-low, individual-speed) are one chunk; the d6 surprise
 * and a held action released (segment-d6, high-low, addict) another.
 */
const SHARED: Record<string, string> = {
  'src/rules/round/surprise.ts': 'surprise-held',
  'src/rules/flow/held.ts': 'surprise-held',
  'src/rules/encumbrance.ts': 'movement',
  'src/rules/movement.ts': 'movement',
};
const ROOT = fileURLToPath(new URL('.', import.meta.url));
const sharedChunk = (id: string): string | undefined => SHARED[id.startsWith(ROOT) ? id.slice(ROOT.length) : id];

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
        // What the entry imports statically is needed at start-up: one shared chunk beside the entry. The rest is
        // loaded with import() on first use (the procedures, the migration, the GM's side of requests, the options
        // app), each a chunk of its own with what only it uses (Rollup's own split).
        // Code only some procedures share, used together by the same procedures, is one chunk, so a procedure does not
        // pay a second chunk's overhead (SHARED).
        manualChunks: (id, meta) => (atStartUp(meta).has(id) ? 'core' : sharedChunk(id)),
      },
    },
  },
});
