/**
 * Issue 24: the built manifest (`dist/system.json`) against Foundry's package
 * rules (tests/standin/package.ts): no core type under `documentTypes` (Foundry
 * would drop the whole field) and each sub-type an object; every pack
 * complete and compiled in `dist/`; `packFolders` naming packs that exist;
 * every module, style and language file in `dist/`; `compatibility` naming
 * the generations the typechecks run against. The same rules refuse the
 * manifest as it was before this issue. `dist/` is built once per test run,
 * by the global setup.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageProblems } from '../standin/package';

const DIST = 'dist';
const built = JSON.parse(readFileSync(join(DIST, 'system.json'), 'utf8'));
const inDist = (path: string) => existsSync(join(DIST, path));
const version = (file: string) => JSON.parse(readFileSync(file, 'utf8')).version as string;

describe('the built manifest, as Foundry validates a package', () => {
  it('breaks no package rule', () => {
    expect(packageProblems(built, inDist)).toEqual([]);
  });

  it('declares only Actor and Item sub-types, and every pack with its compiled folder', () => {
    expect(Object.keys(built.documentTypes).sort()).toEqual(['Actor', 'Item']);
    expect(built.packs.length).toBeGreaterThan(0);
    for (const pack of built.packs) {
      expect(Object.keys(pack)).toEqual(expect.arrayContaining(['name', 'label', 'path', 'type', 'system']));
      expect(inDist(join(pack.path, 'CURRENT')), pack.path).toBe(true);
    }
  });

  it('is compatible from the generation of the v13 typings to the version of the v14 typings the checks run against', () => {
    const v13 = version('node_modules/fvtt-types/package.json');
    // typings-v14/package.json names the packed 14.x typings npm run typecheck:v14 installs (…-14.366.0.tgz).
    const v14 = /-(\d+\.\d+\.\d+)\.tgz$/.exec(JSON.parse(readFileSync('typings-v14/package.json', 'utf8')).dependencies['fvtt-types'])![1];
    expect(built.compatibility.minimum).toBe(v13.split('.')[0]);
    expect(built.compatibility.verified).toBe(v14.split('.').slice(0, 2).join('.'));
    expect(built.compatibility.maximum).toBeUndefined();
  });

  it('refuses the manifest as it was before issue 24 (Combat, Combatant and CombatantGroup "base" declared), and other broken packages', () => {
    const before = structuredClone(built);
    before.documentTypes = { ...before.documentTypes, Combat: { base: {} }, Combatant: { base: {} }, CombatantGroup: { base: {} } };
    expect(packageProblems(before, inDist)).toEqual(['documentTypes would fall back to empty: "base" is a reserved core type for the Combat document']);

    const broken = structuredClone(built);
    broken.documentTypes.Item.weapon = 'yes';
    broken.packs[0] = { ...broken.packs[0], system: undefined, path: 'packs/nowhere', ownership: { PLAYER: 'READER' } };
    broken.packFolders[0].folders[0].packs.push('armour');
    broken.styles.push('styles/missing.css');
    broken.languages.push({ lang: 'fr', name: 'Français', path: 'lang/fr.json' });
    expect(packageProblems(broken, inDist)).toEqual([
      'documentTypes would fall back to empty: documentTypes: the "weapon" sub-type of Item is not an object',
      `pack ${built.packs[0].name}: an Item pack needs "system": "ten-segments"`,
      `pack ${built.packs[0].name}: no compiled pack at packs/nowhere`,
      `pack ${built.packs[0].name}: ownership PLAYER: READER is not a role and a level`,
      'packFolders: no pack named armour',
      'styles: styles/missing.css is not in the package',
      'languages: lang/fr.json is not in the package',
    ]);
  });
});
