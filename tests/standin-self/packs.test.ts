/**
 * Compendium packs in the stand-in (tests/standin/packs.ts): game.packs from the system's sources, index,
 * getDocuments / getDocument, compendium uuids through fromUuid and fromDropData, core's import into the
 * world (importFromCompendium, an item dropped on a sheet carrying _stats.compendiumSource), locked packs
 * (not editable, no writes) and pack ownership per role.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { g, makeWorld } from '../foundry/world';
import { usePackRoot } from '../standin/packs';
import { entries, readSources } from '../packs/sources';

const WEAPONS = entries(readSources('packs/_source/weapons'));
const dagger = WEAPONS.find((s) => s.doc.name === 'Dagger')!.doc;

/** A tree with the repository's manifest and weapons, and a monsters pack holding an orc with an embedded dagger. */
function fixtureRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'standin-packs-'));
  writeFileSync(join(root, 'system.json'), readFileSync('system.json'));
  for (const { file } of readSources('packs/_source/weapons')) {
    mkdirSync(dirname(join(root, 'packs/_source/weapons', file)), { recursive: true });
    writeFileSync(join(root, 'packs/_source/weapons', file), readFileSync(join('packs/_source/weapons', file)));
  }
  mkdirSync(join(root, 'packs/_source/monsters/humanoids'), { recursive: true });
  writeFileSync(join(root, 'packs/_source/monsters/humanoids/_folder.yml'), "_id: HumanoidFolder1\n_key: '!folders!HumanoidFolder1'\nname: Humanoids\ntype: Actor\nsorting: a\nfolder: null\n");
  const orc = {
    _id: 'OrcAAAAAAAAAAAAA',
    _key: '!actors!OrcAAAAAAAAAAAAA',
    name: 'Orc',
    type: 'monster',
    folder: 'HumanoidFolder1',
    system: {},
    items: [{ ...dagger, _key: `!actors.items!OrcAAAAAAAAAAAAA.${dagger._id}`, _stats: { compendiumSource: `Compendium.ten-segments.weapons.Item.${dagger._id}` } }],
  };
  writeFileSync(join(root, 'packs/_source/monsters/humanoids/orc.yml'), JSON.stringify(orc));
  // A source without _key is skipped, as the CLI skips it.
  writeFileSync(join(root, 'packs/_source/monsters/stray.yml'), '_id: StrayAAAAAAAAAAA\nname: Stray\ntype: monster\n');
  return root;
}

describe.each([13, 14] as const)('compendium packs, generation %i', (generation) => {
  let root: string | undefined;
  afterEach(() => {
    usePackRoot();
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it("game.packs holds the manifest's packs; a pack's index, documents and uuids are core's", async () => {
    await makeWorld(generation, 'segment-d6');
    expect([...g.game.packs.keys()]).toEqual(['ten-segments.weapons', 'ten-segments.spells', 'ten-segments.monsters', 'ten-segments.encounters']);
    const pack = g.game.packs.get('ten-segments.weapons');
    expect(pack).toMatchObject({ collection: 'ten-segments.weapons', documentName: 'Item', title: 'Weapons', locked: true });
    expect(pack.metadata).toMatchObject({ name: 'weapons', type: 'Item', packageType: 'system', packageName: 'ten-segments' });
    expect(pack.index.size).toBe(WEAPONS.length);
    expect(pack.index.get(dagger._id)).toMatchObject({ _id: dagger._id, name: 'Dagger', type: 'weapon', uuid: `Compendium.ten-segments.weapons.Item.${dagger._id}` });
    const docs = await pack.getDocuments();
    expect(docs).toHaveLength(WEAPONS.length);
    const doc = await pack.getDocument(dagger._id);
    expect(doc).toBeInstanceOf(g.Item.implementation);
    expect(docs).toContain(doc);
    expect(doc).toMatchObject({ pack: 'ten-segments.weapons', inCompendium: true, uuid: `Compendium.ten-segments.weapons.Item.${dagger._id}` });
    expect(doc.compendium).toBe(pack);
    expect(doc.system.toObject?.() ?? doc.system).toMatchObject(dagger.system);
    expect(await pack.getDocuments({ name: 'Dagger' })).toEqual([doc]);
    expect(await pack.getDocument('NoSuchIdAAAAAAAA')).toBeUndefined();
    expect(await g.fromUuid(doc.uuid)).toBe(doc);
    expect(g.fromUuidSync(doc.uuid)).toBe(doc);
    expect(await g.fromUuid('Compendium.ten-segments.weapons.Actor.' + dagger._id)).toBeNull();
    expect(await g.fromUuid('Compendium.ten-segments.nothing.Item.' + dagger._id)).toBeNull();
  });

  it('an actor pack: folders, embedded items under the compendium uuid, fromDropData returning the compendium document; a source without _key skipped', async () => {
    root = fixtureRoot();
    usePackRoot(root);
    await makeWorld(generation, 'segment-d6');
    const pack = g.game.packs.get('ten-segments.monsters');
    expect([...pack.index.keys()]).toEqual(['OrcAAAAAAAAAAAAA']);
    expect(pack.index.get('OrcAAAAAAAAAAAAA').folder).toBe('HumanoidFolder1');
    expect(pack.folders.get('HumanoidFolder1')).toMatchObject({ name: 'Humanoids', type: 'Actor' });
    const orc = await pack.getDocument('OrcAAAAAAAAAAAAA');
    expect(orc.uuid).toBe('Compendium.ten-segments.monsters.Actor.OrcAAAAAAAAAAAAA');
    const knife = orc.items.get(dagger._id);
    expect(knife.pack).toBe('ten-segments.monsters');
    expect(knife.uuid).toBe(`Compendium.ten-segments.monsters.Actor.OrcAAAAAAAAAAAAA.Item.${dagger._id}`);
    expect(await g.fromUuid(knife.uuid)).toBe(knife);
    expect(knife._stats.compendiumSource).toBe(`Compendium.ten-segments.weapons.Item.${dagger._id}`);
    expect(await g.Actor.implementation.fromDropData({ type: 'Actor', uuid: orc.uuid })).toBe(orc);
    await expect(g.Item.implementation.fromDropData({ type: 'Actor', uuid: orc.uuid })).rejects.toThrow(/Invalid Document type/);
  });

  it("core's import: importFromCompendium makes a world actor with _stats.compendiumSource, its items kept; the pack's document unchanged", async () => {
    root = fixtureRoot();
    usePackRoot(root);
    const w = await makeWorld(generation, 'segment-d6');
    const pack = g.game.packs.get('ten-segments.monsters');
    const actor = await g.game.actors.importFromCompendium(pack, 'OrcAAAAAAAAAAAAA');
    expect(actor.id).not.toBe('OrcAAAAAAAAAAAAA');
    expect(actor.pack).toBeNull();
    expect(actor.uuid).toBe(`Actor.${actor.id}`);
    expect(g.game.actors.get(actor.id)).toBe(actor);
    expect(actor._stats.compendiumSource).toBe('Compendium.ten-segments.monsters.Actor.OrcAAAAAAAAAAAAA');
    expect(actor.items.get(dagger._id)?._stats.compendiumSource).toBe(`Compendium.ten-segments.weapons.Item.${dagger._id}`);
    expect(w.foundry.server.source(actor.uuid)).toMatchObject({ name: 'Orc', _stats: { compendiumSource: 'Compendium.ten-segments.monsters.Actor.OrcAAAAAAAAAAAAA' } });
    // fromCompendium with keepId and updateData, as core.
    const named = await g.game.actors.importFromCompendium(pack, 'OrcAAAAAAAAAAAAA', { name: 'Orc chief' }, { keepId: true });
    expect(named).toMatchObject({ id: 'OrcAAAAAAAAAAAAA', name: 'Orc chief' });
    await expect(g.game.items.importFromCompendium(pack, 'OrcAAAAAAAAAAAAA')).rejects.toThrow(/incorrect for this Collection/);
  });

  it('a compendium weapon dropped on a sheet becomes an embedded copy with _stats.compendiumSource and the same system data', async () => {
    const w = await makeWorld(generation, 'segment-d6');
    const pack = g.game.packs.get('ten-segments.weapons');
    const doc = await pack.getDocument(dagger._id);
    const actor = w.actors.brand;
    await actor.sheet.render({ force: true });
    const created: any = await w.foundry.dropOnSheet(actor.sheet, doc.toDragData());
    expect(doc.toDragData()).toEqual({ type: 'Item', uuid: doc.uuid });
    expect(created.parent).toBe(actor);
    expect(created._stats.compendiumSource).toBe(doc.uuid);
    expect(created.toObject().system).toEqual(doc.toObject().system);
    expect(created.pack).toBeNull();
  });

  it('a locked pack is not editable and refuses writes; unlocking makes its sheets editable for a GM; a role without ownership cannot see it', async () => {
    root = fixtureRoot();
    usePackRoot(root);
    const w = await makeWorld(generation, 'segment-d6');
    const pack = g.game.packs.get('ten-segments.weapons');
    const doc = await pack.getDocument(dagger._id);
    expect(doc.sheet.isEditable).toBe(false);
    await expect(doc.update({ name: 'Knife' })).rejects.toThrow(/locked compendium/);
    await expect(doc.delete()).rejects.toThrow(/locked compendium/);
    await expect(g.Item.create({ name: 'New', type: 'weapon' }, { pack: pack.collection })).rejects.toThrow(/locked compendium/);
    const orc = await g.game.packs.get('ten-segments.monsters').getDocument('OrcAAAAAAAAAAAAA');
    await expect(orc.createEmbeddedDocuments('Item', [{ name: 'Club', type: 'weapon' }])).rejects.toThrow(/locked compendium/);
    await pack.configure({ locked: false });
    expect(doc.sheet.isEditable).toBe(true);
    await expect(doc.update({ name: 'Knife' })).rejects.toThrow(/does not write to compendium packs/);
    expect(doc.name).toBe('Dagger');
    // Ownership per role from the manifest: players observe weapons, not monsters.
    const player = w.foundry.users.player;
    expect(doc.testUserPermission(player, 'OBSERVER')).toBe(true);
    expect(doc.testUserPermission(player, 'OWNER')).toBe(false);
    expect(orc.testUserPermission(player, 'LIMITED')).toBe(false);
    expect(await w.foundry.asUser(player, async () => g.game.packs.get('ten-segments.monsters').visible)).toBe(false);
    expect(await w.foundry.asUser(player, async () => g.game.packs.get('ten-segments.weapons').visible)).toBe(true);
  });
});
