#!/usr/bin/env node
// Builds the command-line tools once, each into one ES module (yaml and the
// engine bundled), so `npm run sim` and `npm run odds` start without
// compiling TypeScript:
//   build/sim.mjs          the scenario runner (src/sim/main.ts)
//   build/odds.mjs         the odds runner (src/sim/odds/main.ts)
//   build/odds-worker.mjs  its worker thread (src/sim/odds/worker.ts)
// Each is rebuilt only when a source (src/, package-lock.json) is newer than
// the built file; `--force` always rebuilds. Names select tools (`sim`,
// `odds`); none: all of them.
// Usage: node scripts/build-cli.mjs [--force] [sim|odds …]
import { build } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const OUT = join(root, 'build', 'sim.mjs');
export const ODDS = join(root, 'build', 'odds.mjs');
export const ODDS_WORKER = join(root, 'build', 'odds-worker.mjs');

/** Each tool: its bundles (entry point → built file). */
const TOOLS = {
  sim: [[join(root, 'src', 'sim', 'main.ts'), OUT]],
  odds: [
    [join(root, 'src', 'sim', 'odds', 'main.ts'), ODDS],
    [join(root, 'src', 'sim', 'odds', 'worker.ts'), ODDS_WORKER],
  ],
};

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function builtAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Build the named tools (all by default) where out of date; true when anything was built. */
export async function buildCli({ force = false, tools = Object.keys(TOOLS) } = {}) {
  const sources = Math.max(newest(join(root, 'src')), statSync(join(root, 'package-lock.json')).mtimeMs);
  const stale = tools.flatMap((name) => TOOLS[name]).filter(([, out]) => force || builtAt(out) <= sources);
  await Promise.all(
    stale.map(([entry, outfile]) =>
      build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        minify: true,
        legalComments: 'none',
        logLevel: 'warning',
        // yaml is CommonJS: give the bundle a require of its own.
        banner: { js: "import { createRequire as __tensegRequire } from 'node:module'; const require = __tensegRequire(import.meta.url);" },
      }),
    ),
  );
  return stale.length > 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !(n in TOOLS));
  if (unknown.length > 0) {
    process.stderr.write(`build-cli: unknown tool ${unknown.join(', ')} (known: ${Object.keys(TOOLS).join(', ')})\n`);
    process.exit(2);
  }
  await buildCli({ force: process.argv.includes('--force'), ...(names.length > 0 ? { tools: names } : {}) });
}
