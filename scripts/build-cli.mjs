#!/usr/bin/env node
// Builds the scenario runner once into build/sim.mjs (one ES module, yaml and
// the engine bundled), so `npm run sim` starts without compiling TypeScript.
// Rebuilds only when a source (src/, lang/) is newer than the built file;
// `--force` always rebuilds. Usage: node scripts/build-cli.mjs [--force]
import { build } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const OUT = join(root, 'build', 'sim.mjs');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export async function buildCli({ force = false } = {}) {
  let built = 0;
  try {
    built = statSync(OUT).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(newest(join(root, 'src')), statSync(join(root, 'package-lock.json')).mtimeMs);
  if (!force && built > sources) return false;
  await build({
    entryPoints: [join(root, 'src', 'sim', 'main.ts')],
    outfile: OUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // yaml is CommonJS: give the bundle a require of its own.
    banner: { js: "import { createRequire as __tensegRequire } from 'node:module'; const require = __tensegRequire(import.meta.url);" },
  });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildCli({ force: process.argv.includes('--force') });
}
