import { defineConfig } from 'vitest/config';

// Vitest 5's reporter calls Map.groupBy (Node 21+) when it prints failures;
// on Node 20 that would crash the summary, so give Node 20 the same function.
if (typeof (Map as unknown as { groupBy?: unknown }).groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    configurable: true,
    writable: true,
    value<K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> {
      const out = new Map<K, V[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        const list = out.get(k);
        if (list) list.push(item);
        else out.set(k, [item]);
      }
      return out;
    },
  });
}

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup.ts'],
    // Once per run: dist/ built as npm run build builds it, and the command-line tools (build/sim.mjs, build/odds.mjs).
    globalSetup: ['tests/global-setup.ts'],
    environment: 'node',
    // Hang guards, not timings: the slowest test takes about 20 s on a quiet 2-core machine; on a busy one several
    // times that. Nothing asserts on wall time (README: "The tests on a busy machine").
    testTimeout: 300_000,
    hookTimeout: 300_000,
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
    // Coverage of the engine, on when scripts/test.mjs passes --coverage (npm test).
    coverage: {
      provider: 'v8',
      include: ['src/rules/**'],
      // About to be deleted: not counted.
      exclude: ['src/rules/common.ts', 'src/rules/resolve.ts'],
      reporter: ['text-summary', 'json-summary'],
      // Printed and written even when a test fails: the figure is its own check.
      reportOnFailure: true,
      // Inside build/ (git-ignored, made by the build): coverage-summary.json, which scripts/test.mjs reads.
      reportsDirectory: 'build/coverage',
      thresholds: { lines: 95 },
    },
  },
});
