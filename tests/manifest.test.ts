import "./standin/global";
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_MODELS } from '../src/data/index';

// The manifest is what Foundry reads to install and load the system.
const manifest = JSON.parse(readFileSync('system.json', 'utf8'));

describe('system.json', () => {
  it('identifies the system and its compatibility (issue #2)', () => {
    expect(manifest.id).toBe('ten-segments');
    expect(manifest.title).toBe('Ten Segments');
    // Verified names what the checks rest on: the v14 typings npm run typecheck:v14 installs (and the stand-in declared against them).
    const typings = JSON.parse(readFileSync(new URL('../typings-v14/package.json', import.meta.url), 'utf8')).dependencies['fvtt-types'];
    const build = /-(\d+)\.(\d+)\.\d+\.tgz$/.exec(typings);
    expect(manifest.compatibility).toEqual({ minimum: '13', verified: `${build?.[1]}.${build?.[2]}` });
    expect(manifest.compatibility.verified).toBe('14.366');
    expect(manifest.socket).toBe(true);
    expect(manifest.primaryTokenAttribute).toBe('hp');
  });

  it('a 5-ft square grid', () => {
    expect(manifest.grid).toMatchObject({ type: 1, distance: 5, units: 'ft' });
  });

  it('declares every document type the data models register, and no other', () => {
    for (const [doc, types] of Object.entries(DATA_MODELS)) {
      expect(Object.keys(manifest.documentTypes[doc] ?? {}).sort()).toEqual(Object.keys(types).sort());
    }
    expect(Object.keys(manifest.documentTypes).sort()).toEqual(Object.keys(DATA_MODELS).sort());
  });

  it('lists files that exist: styles, languages', () => {
    for (const style of manifest.styles) expect(existsSync(style)).toBe(true);
    for (const lang of manifest.languages) expect(existsSync(lang.path)).toBe(true);
    expect(manifest.esmodules).toEqual(['ten-segments.js']);
  });
});
