#!/usr/bin/env node
// Builds the installable system into dist/ (exactly what Foundry loads) and a
// release zip into release/. Usage: npm run build. The tests' global setup
// (tests/global-setup.ts) calls buildSystem() once per test run.
import { build } from 'vite';
import { build as esbuild } from 'esbuild';
import { minify } from 'terser';
import { compilePack } from '@foundryvtt/foundryvtt-cli';
import JSZip from 'jszip';
import { parse as parseYaml } from 'yaml';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from './build-cli.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const release = join(root, 'release');

async function exists(p) {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

async function files(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else out.push(p);
  }
  return out;
}

/** Build dist/ and release/ (and the command-line tools); returns what it printed of them. */
export async function buildSystem({ log = true } = {}) {
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });

  // 1. The bundle: the entry and its chunks (one per procedure, loaded on demand).
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  // Terser with two compress passes gives the smallest output (about 5 % under esbuild's minifier).
  const scripts = (await files(dist)).filter((f) => f.endsWith('.js'));
  for (const file of scripts) {
    const out = await minify(await readFile(file, 'utf8'), { module: true, ecma: 2022, compress: { passes: 2 }, mangle: true, format: { comments: false } });
    await writeFile(file, out.code);
  }

  // 1b. The odds' Web Worker (issue 14): the engine and all five procedures in one ES module beside the entry, started by the odds
  // dialog (new Worker(…, {type: 'module'})) in the GM's browser; never imported at start-up.
  await esbuild({
    entryPoints: [join(root, 'src', 'odds-worker.ts')],
    outfile: join(dist, 'odds-worker.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });

  // 2. Manifest, styles, templates, languages.
  const manifest = JSON.parse(await readFile(join(root, 'system.json'), 'utf8'));
  await writeFile(join(dist, 'system.json'), JSON.stringify(manifest, null, 2) + '\n');
  for (const dir of ['styles', 'templates']) {
    if (await exists(join(root, dir))) await cp(join(root, dir), join(dist, dir), { recursive: true });
  }
  await mkdir(join(dist, 'lang'), { recursive: true });
  for (const lang of manifest.languages ?? []) {
    await cp(join(root, lang.path), join(dist, lang.path));
  }

  // 3. Compendium packs: packs/_source/<name>/**.yml (documents, folders from `_folder.yml`, embedded documents
  // keyed `!actors.items!<actor>.<item>`) → dist/packs/<name> (LevelDB), one per pack the manifest declares.
  // A pack whose sources are not written yet compiles empty (Foundry opens it with no entries), so the build
  // passes at every step; the count is printed so an empty pack is seen.
  const packCounts = [];
  for (const pack of manifest.packs ?? []) {
    const name = pack.path.replace(/^packs\//, '');
    const src = join(root, 'packs', '_source', name);
    if (!(await exists(src))) await mkdir(src, { recursive: true });
    const sources = (await files(src)).filter((f) => /\.ya?ml$/.test(f));
    const documents = [];
    for (const f of sources) {
      const key = parseYaml(await readFile(f, 'utf8'))?._key;
      // compilePack skips a file without `_key`: refuse it here instead of shipping a pack without it.
      if (typeof key !== 'string') throw new Error(`pack ${name}: ${relative(root, f)} has no _key (compilePack would skip it)`);
      if (!key.startsWith('!folders!')) documents.push(f);
    }
    await compilePack(src, join(dist, pack.path), { yaml: true, recursive: true, log: false });
    packCounts.push(`${name} ${documents.length}${documents.length === 0 ? ' (no sources yet: compiled empty)' : ''}`);
  }
  // 4. Release zip of dist/ (installable by unzipping into Data/systems/ten-segments).
  await rm(release, { recursive: true, force: true });
  await mkdir(release, { recursive: true });
  const zip = new JSZip();
  for (const f of await files(dist)) {
    if (f.includes(`${join('packs', '')}`) && f.endsWith('LOCK')) continue;
    zip.file(relative(dist, f), await readFile(f));
  }
  const buffer = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  await writeFile(join(release, 'ten-segments.zip'), buffer);
  await writeFile(join(release, 'system.json'), JSON.stringify(manifest, null, 2) + '\n');

  // 5. The scenario runner, built once (npm run sim).
  await buildCli({ force: true });

  let bytes = 0;
  for (const file of scripts) bytes += (await stat(file)).size;
  const summary = [`built dist/ (${scripts.length} script files, ${bytes} bytes) and release/ten-segments.zip (${buffer.length} bytes)`, `packs: ${packCounts.join(', ')}`];
  if (log) for (const line of summary) console.log(line);
  return summary;
}

// Run as a script (npm run build): build once.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildSystem();
