import "./standin/global";
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DATA_MODELS } from '../src/data/index';
import { installFoundry } from './standin';
import { initSystem } from '../src/system';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const g = globalThis as any;

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

  it('declares the Actor and Item types, each with its data model and its default sheet; no core-typed document (issue 24)', async () => {
    // Foundry refuses a core type ("base") under documentTypes and then drops the whole field: Actor and Item only.
    expect(Object.keys(manifest.documentTypes).sort()).toEqual(['Actor', 'Item']);
    const foundry = installFoundry({ generation: 13, lang: 'lang/en.json' });
    foundry.everyClient(initSystem);
    for (const doc of ['Actor', 'Item'] as const) {
      const declared = Object.keys(manifest.documentTypes[doc]).sort();
      expect(declared).toEqual(Object.keys(DATA_MODELS[doc]).sort());
      for (const type of declared) {
        expect(g.CONFIG[doc].dataModels[type], `${doc}.${type}'s data model`).toBe(DATA_MODELS[doc][type as keyof (typeof DATA_MODELS)[typeof doc]]);
        const sheets = Object.values(g.CONFIG[doc].sheetClasses[type] ?? {}) as { id: string; default: boolean }[];
        expect(sheets.filter((s) => s.default).map((s) => s.id.split('.')[0]), `${doc}.${type}'s default sheet`).toEqual(['ten-segments']);
      }
    }
    // The core-typed documents' models are registered through CONFIG alone, on the "base" type core gives them.
    for (const doc of ['Combat', 'Combatant', 'CombatantGroup'] as const) {
      expect(manifest.documentTypes[doc]).toBeUndefined();
      expect(g.CONFIG[doc].dataModels.base).toBe(DATA_MODELS[doc].base);
    }
  });

  it('lists files that exist: styles, languages', () => {
    for (const style of manifest.styles) expect(existsSync(style)).toBe(true);
    for (const lang of manifest.languages) expect(existsSync(lang.path)).toBe(true);
    expect(manifest.esmodules).toEqual(['ten-segments.js']);
  });
});
