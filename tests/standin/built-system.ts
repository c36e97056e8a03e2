/**
 * A built system folder (`dist/`) as Foundry installs it: the manifest read
 * and validated (package.ts), and the compiled packs read back through the
 * official packs CLI (`extractPack`), as a world indexes them. Node only
 * (the preview page never loads a build): kept apart from index.ts.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readSystemPackage, type SystemPackage } from './package';
import type { FoundryHandle } from './index';
import { state, type ModuleHookRegistration } from './state';

// The CLI ships no type declarations: loaded by name, typed as used here.
const CLI = '@foundryvtt/foundryvtt-cli';
type ExtractPack = (src: string, dest: string, options: { log: boolean; transformEntry: (doc: any) => boolean }) => Promise<void>;

/**
 * Read a built system folder: its manifest, and every pack it declares from its compiled LevelDB (each
 * document and folder with its `_key`, embedded documents under it, as the CLI extracts them). A pack
 * is read from a copy: LevelDB lets one process open a database, and other tests may read the same build.
 */
export async function loadBuiltSystem(dir: string): Promise<SystemPackage> {
  const root = resolvePath(dir);
  const { manifest } = readSystemPackage(root);
  const { extractPack } = (await import(CLI)) as { extractPack: ExtractPack };
  const tmp = mkdtempSync(join(tmpdir(), 'ten-segments-built-'));
  const packs = new Map<string, any[]>();
  try {
    for (const pack of manifest.packs ?? []) {
      const copy = join(tmp, pack.name);
      cpSync(resolvePath(root, pack.path), copy, { recursive: true, filter: (src) => !src.endsWith('LOCK') });
      const entries: any[] = [];
      await extractPack(copy, join(tmp, `${pack.name}.out`), {
        log: false,
        transformEntry: (doc) => {
          entries.push(doc);
          return false;
        },
      });
      packs.set(pack.name, entries);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return readSystemPackage(root, packs);
}

/** What each module's body registered when it was loaded, by URL: a module is evaluated once per process. */
const loaded = new Map<string, ModuleHookRegistration[]>();

/**
 * Load the system's entry module (the manifest's first `esmodules` path) as every browser loads it before
 * `init`: its body's hook registrations (`Hooks.once('init', …)`) are made on every client's own Hooks, now
 * and on clients that connect later (handle.everyClient). The module (and the chunks it imports) is
 * evaluated once per process, as the stand-in's document classes are shared: its body's registrations are
 * recorded at that load and made again in each later world. `importer` is the test file's own `import()`
 * (the test runner's module loader).
 */
export async function loadSystemModule(foundry: FoundryHandle, pkg: SystemPackage, importer: (url: string) => Promise<unknown>): Promise<void> {
  const entry = resolvePath(pkg.root, pkg.manifest.esmodules[0]);
  const url = pathToFileURL(entry).href;
  let registrations = loaded.get(url);
  if (!registrations) {
    state.moduleLoad = { registrations: [] };
    try {
      await importer(url);
      registrations = state.moduleLoad.registrations;
    } finally {
      state.moduleLoad = null;
    }
    loaded.set(url, registrations);
  }
  // A chunk the system imports on first use is a fetch in Foundry, which settle() cannot see: every chunk is
  // loaded ahead, so such an import resolves at once and what follows it is seen (the odds' Worker script is not a chunk).
  for (const file of readdirSync(join(dirname(entry), 'chunks')).filter((f) => f.endsWith('.js')).sort()) {
    await importer(pathToFileURL(join(dirname(entry), 'chunks', file)).href);
  }
  const made = registrations;
  await foundry.everyClient(() => {
    for (const r of made) (globalThis as any).Hooks[r.kind](r.hook, r.fn);
  });
}
