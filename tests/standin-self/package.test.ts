/**
 * The stand-in's reading of a system folder (package.ts) held to Foundry's
 * (CONFORMANCE.md, P1, P2, P8): `documentTypes` validated as core's
 * AdditionalTypesField validates it and, when it fails, fallen back to empty
 * with a warning, the world then refusing the sub-types; the rendered
 * applications registry of each client.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import '../standin/global';
import { installFoundry } from '../standin';
import { readSystemPackage, validateDocumentTypes } from '../standin/package';

const g = globalThis as any;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A system folder holding only this manifest. */
function folder(manifest: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'standin-package-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'system.json'), JSON.stringify({ id: 'ten-segments', title: 'T', version: '1', ...manifest }));
  return dir;
}

describe('a manifest as Foundry reads it', () => {
  it('accepts sub-types of documents that take them; refuses a core type, a document without sub-types, a non-object', () => {
    expect(() => validateDocumentTypes({ Actor: { hero: {} }, Item: { sword: { htmlFields: ['description'] } }, JournalEntryPage: { quest: {} } })).not.toThrow();
    expect(() => validateDocumentTypes({ Combat: { base: {} } })).toThrow('"base" is a reserved core type for the Combat document');
    expect(() => validateDocumentTypes({ JournalEntryPage: { text: {} } })).toThrow('"text" is a reserved core type for the JournalEntryPage document');
    expect(() => validateDocumentTypes({ Scene: { dungeon: {} } })).toThrow(/'Scene' is not a Document type that supports sub-types/);
    expect(() => validateDocumentTypes({ Actor: { hero: true } })).toThrow(/"hero" sub-type of Actor is not an object/);
    expect(() => validateDocumentTypes({ Actor: ['hero'] })).toThrow(/Actor sub-types are not an object/);
  });

  it('a failing documentTypes falls back to {} with a warning; the other fields stand', () => {
    const read = readSystemPackage(folder({ documentTypes: { Actor: { hero: {} }, CombatantGroup: { base: {} } }, initiative: '1d6' }));
    expect(read.types).toEqual({});
    expect(read.manifest).toMatchObject({ documentTypes: {}, initiative: '1d6' });
    expect(read.warnings).toEqual(['ten-segments: documentTypes fell back to its initial value: "base" is a reserved core type for the CombatantGroup document']);
    expect(readSystemPackage(folder({ documentTypes: { Actor: { hero: {} } } }))).toMatchObject({ types: { Actor: ['hero'] }, warnings: [] });
  });

  it.each([13, 14] as const)('generation %i: a world whose manifest fell back knows only "base"; game.system is the manifest\'s', async (generation) => {
    const broken = readSystemPackage(folder({ documentTypes: { Actor: { hero: {} }, Combat: { base: {} } }, initiative: '1d8' }));
    const foundry = installFoundry({ generation, system: broken, lang: [] });
    expect(foundry.packageWarnings).toHaveLength(1);
    expect(g.game.documentTypes.Actor).toEqual(['base']);
    expect(g.game.system).toMatchObject({ id: 'ten-segments', title: 'T', version: '1', initiative: '1d8' });
    // Refused on the client (the world's types): an error notification, nothing sent.
    expect(await g.Actor.create({ name: 'Brand', type: 'hero' })).toBeUndefined();
    expect(foundry.notifications).toEqual([{ type: 'error', message: expect.stringContaining('"hero" is not a valid type for the Actor Document class') }]);
    expect(foundry.writes.count('Actor')).toBe(0);
    const fine = readSystemPackage(folder({ documentTypes: { Actor: { hero: {} } } }));
    installFoundry({ generation, system: fine, lang: [] });
    expect((await g.Actor.create({ name: 'Brand', type: 'hero' })).type).toBe('hero');
  });
});

describe('foundry.applications.instances', () => {
  it.each([13, 14] as const)('generation %i: each client lists its own rendered applications, from the first render until closed', async (generation) => {
    const foundry = installFoundry({ generation });
    const { ApplicationV2 } = g.foundry.applications.api;
    const app = new ApplicationV2({ id: 'my-dialog' });
    expect(g.foundry.applications.instances.has('my-dialog')).toBe(false);
    await app.render({ force: true });
    expect(g.foundry.applications.instances.get('my-dialog')).toBe(app);
    expect(await foundry.asUser(foundry.users.player, () => g.foundry.applications.instances.has('my-dialog'))).toBe(false);
    await app.close();
    expect(g.foundry.applications.instances.has('my-dialog')).toBe(false);
  });
});
