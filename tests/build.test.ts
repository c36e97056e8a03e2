import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';

// `npm run build` fills dist/ with exactly what Foundry loads and writes a release zip.
function files(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, base) : [p.slice(base.length + 1)];
  });
}

// The CLI ships no type declarations: load it by name so it is typed as we use it.
const CLI = '@foundryvtt/foundryvtt-cli';
type ExtractPack = (src: string, dest: string, options: { yaml: boolean; log: boolean }) => Promise<void>;

describe('the installable build', () => {
  let extractPack: ExtractPack;
  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'pipe' });
    ({ extractPack } = (await import(CLI)) as { extractPack: ExtractPack });
  }, 120_000);

  it('dist holds the manifest, one bundle, the styles, templates, languages and compiled packs — nothing else', () => {
    const manifest = JSON.parse(readFileSync('dist/system.json', 'utf8'));
    const all = files('dist');
    const top = new Set(all.map((f) => f.split('/')[0]));
    expect([...top].sort()).toEqual(['lang', 'packs', 'styles', 'system.json', 'templates', 'ten-segments.js']);
    expect(all.filter((f) => f.endsWith('.js'))).toEqual(['ten-segments.js']);
    for (const lang of manifest.languages) expect(existsSync(join('dist', lang.path))).toBe(true);
    expect(all.filter((f) => f.startsWith('lang/'))).toEqual(manifest.languages.map((l: { path: string }) => l.path));
    for (const style of manifest.styles) expect(existsSync(join('dist', style))).toBe(true);
    expect(all.filter((f) => f.startsWith('templates/')).length).toBe(files('templates').length);
  });

  it('the bundle is one minified ES module that registers the system at init', () => {
    const js = readFileSync('dist/ten-segments.js', 'utf8');
    expect(js.split('\n').length).toBeLessThan(10);
    expect(js).toMatch(/Hooks\.once\("init"/);
    expect(js).not.toMatch(/^import /m);
  });

  it('every pack compiles with every source document in it', async () => {
    const manifest = JSON.parse(readFileSync('system.json', 'utf8'));
    for (const pack of manifest.packs) {
      // Read a copy: opening a LevelDB writes to its folder.
      const copy = mkdtempSync(join(tmpdir(), 'pack-db-'));
      cpSync(join('dist', pack.path), copy, { recursive: true });
      const out = mkdtempSync(join(tmpdir(), 'pack-'));
      await extractPack(copy, out, { yaml: true, log: false });
      const sources = readdirSync(join('packs', '_source', pack.name)).filter((f) => f.endsWith('.yml'));
      expect(readdirSync(out).filter((f) => f.endsWith('.yml')).length).toBe(sources.length);
    }
  });

  it('the release zip holds the same files as dist, ready to unzip into Data/systems/ten-segments', async () => {
    const zip = await JSZip.loadAsync(readFileSync('release/ten-segments.zip'));
    const inZip = Object.keys(zip.files).filter((f) => !zip.files[f].dir).sort();
    const inDist = files('dist').filter((f) => !f.endsWith('LOCK')).sort();
    expect(inZip).toEqual(inDist);
    expect(JSON.parse(readFileSync('release/system.json', 'utf8')).id).toBe('ten-segments');
  });
});
