/**
 * World migration from the pre-release schema (version 0) to this build's.
 *
 * The fixture tests/foundry/fixtures/world-v0.json is a world as the server
 * sends it in `game.data`: raw stored sources, before any data model read
 * them. The stand-in has no `game.data` and no separate database, so
 * ./stored-world.ts supplies both, faithfully. Running combats stored by
 * schema 1 are in migration-v1.test.ts.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FoundryHandle } from '../standin';
import { readySystem } from '../../src/system';
import { boot, COLLECTIONS, Database, expectMemoryMatchesDatabase, withoutStats, type Source, type StoredWorld } from './stored-world';
import { migrateWorld, SCHEMA_VERSION } from '../../src/documents/migration';

const g = globalThis as any;
const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/world-v0.json', import.meta.url), 'utf8'));

/** The fixture after the migration, written out by hand: exactly these values change. */
/** The fixture's stored declarations as requests (schema 3): the weapon and spell by their item ids. */
const REQUESTS: Record<string, unknown> = {
  CbtHalvaine00001: { action: 'spell', spell: 'Sl33pSpe11000001' },
  CbtBrand00000002: { action: 'melee', target: 'CbtOrcOne0000003', weapon: 'L0ngSw0rd0000004' },
  CbtOrcOne0000003: { action: 'melee', target: 'CbtHalvaine00001', note: 'the one in the robe' },
};

function expectedAfterMigration(): StoredWorld {
  const world: StoredWorld = structuredClone(FIXTURE);
  const set = g.foundry.utils.setProperty;
  const actorChanges: Record<string, Record<string, unknown>> = {
    Ha1va1ne00000001: { 'system.hp.value': 7, 'system.hp.max': 9, 'system.ac': 9, 'system.attack.aac0': '20', 'system.movement': { base: 120, charge: 0 } },
    Brand00000000002: { 'system.ac': 2, 'system.attack.aac0': '17', 'system.movement': { base: 90, charge: 0 } },
    '0rc0ne0000000004': { 'system.hitDice': '1', 'system.hp.value': 6, 'system.hp.max': 6, 'system.ac': 6, 'system.aac0': '19', 'system.movement': { base: 90, charge: 0 } },
    '0rcTw00000000005': { 'system.hitDice': '1', 'system.hp.max': 6, 'system.aac0': '19', 'system.movement': { base: 90, charge: 0 } },
    K0b0ld0000000006: { 'system.hitDice': '½', 'system.hp.value': 2, 'system.hp.max': 3, 'system.ac': 7, 'system.aac0': '20', 'system.movement': { base: 60, charge: 0 } },
    G0bl1nShaman0007: { 'system.hp.value': 4 },
    '0gre000000000008': { 'system.ac': -1, 'system.aac0': '15', 'system.movement': { base: 90, charge: 0 } },
  };
  for (const [id, changes] of Object.entries(actorChanges)) {
    const actor = world.actors.find((a) => a._id === id)!;
    for (const [path, value] of Object.entries(changes)) set(actor, path, value);
  }
  // Version 5 (individual-speed, seed 003): every actor and item gets the new fields' defaults; nothing else changes.
  const v5: Record<string, Record<string, unknown>> = {
    weapon: { critical: 2, damageTypes: [] },
    armor: { defense: 0, armour: 0 },
  };
  for (const actor of world.actors) {
    actor.system.individual = { ...(actor.system.individual ?? {}), defense: 0, armour: 0, attackBonus: 0 };
    for (const item of actor.items) Object.assign(item.system, v5[item.type] ?? {});
  }
  for (const item of world.items) Object.assign(item.system, v5[item.type] ?? {});
  // Version 6 (issue 28): a character turns undead where its class does (Sister Agathe the cleric), no monster turns,
  // and no gear is a magic device until the GM marks it one.
  for (const actor of world.actors) {
    if (actor.type === 'character') actor.system.details = { ...actor.system.details, turnsUndead: actor.system.details?.className === 'Cleric' };
    else actor.system.turnsUndead = false;
    for (const item of actor.items) if (item.type === 'gear') item.system.device = false;
  }
  for (const item of world.items) if (item.type === 'gear') item.system.device = false;
  // Declarations move from the flag into system data, as the requests they were (version 3: items by id, no numbers); the other flags stay.
  const combat = world.combats.find((c) => c._id === 'C0mbatKeep000001')!;
  for (const c of combat.combatants) {
    const own = c.flags['ten-segments'];
    if (!own || !('declaration' in own)) continue;
    c.system = { declaration: REQUESTS[c._id] ?? null };
    delete own.declaration;
  }
  // Version 2: combats are stored as their log (neither had started). The keys the data models no longer define
  // (the combats' old flow text, the sides' roll fields) stay: core's client drops their deletion from an update.
  for (const c of world.combats) c.system = { ...c.system, version: 2, log: {} };
  return world;
}

const EXPECTED_WRITTEN = {
  // Every actor: version 5 gives each the individual-speed bonuses (Sister Agathe had nothing else to convert).
  actors: ['Ha1va1ne00000001', 'Brand00000000002', 'Agathe0000000003', '0rc0ne0000000004', '0rcTw00000000005', 'K0b0ld0000000006', 'G0bl1nShaman0007', '0gre000000000008'],
  combatants: ['CbtHalvaine00001', 'CbtBrand00000002', 'CbtOrcOne0000003', 'CbtOrcTwo0000004'],
};

describe.each([13, 14] as const)('world migration from schema 0, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let db: Database;

  beforeEach(async () => {
    ({ foundry, db } = await boot(generation, FIXTURE));
  });

  it('starts from a stored pre-release world that the data models already read as version 1, so an ordinary update writes nothing', async () => {
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(0);
    expect(g.game.actors.size).toBe(FIXTURE.actors.length);
    const halvaine = g.game.actors.get('Ha1va1ne00000001');
    // Stored: 12 (inches), "7"; in memory: 120 ft, 7.
    expect(db.find('actors', 'Ha1va1ne00000001').system.movement).toBe(12);
    expect(halvaine.system.movement).toEqual({ base: 120, charge: 0 });
    expect(halvaine.system.hp.value).toBe(7);
    // Core diffs an update against the in-memory source: writing the converted values sends nothing.
    await halvaine.update({ 'system.movement': { base: 120, charge: 0 }, 'system.hp.value': 7 });
    expect(foundry.writes.count()).toBe(0);
    expect(db.find('actors', 'Ha1va1ne00000001').system.movement).toBe(12);
  });

  it('migrates every legacy value exactly and keeps everything else: names, ownership, flags, items, tokens, groups', async () => {
    const report = await migrateWorld();
    // Items: the seven weapons and armours of the actors, and the world's long bow and chain mail (version 5), and its
    // rope (version 6: no magic device). The sides: nothing core would write (their only change was dropping keys the
    // data model does not define).
    expect(report).toMatchObject({ from: 0, to: SCHEMA_VERSION, actors: 8, items: 10, combats: 2, combatants: 4, groups: 0, failed: [] });

    // The database holds the fixture with exactly the converted values changed.
    const expected = expectedAfterMigration();
    for (const [collection] of COLLECTIONS) {
      expect(db.data[collection].map(withoutStats), collection).toStrictEqual(expected[collection].map(withoutStats));
    }
    // Written documents carry the GM's modification stamp; the others are untouched.
    for (const actor of db.data.actors) {
      const before = FIXTURE.actors.find((a: Source) => a._id === actor._id);
      if (EXPECTED_WRITTEN.actors.includes(actor._id)) expect(actor._stats).toMatchObject({ createdTime: before._stats.createdTime, lastModifiedBy: foundry.users.gm.id });
      else expect(actor._stats).toStrictEqual(before._stats);
    }

    // In memory, every document is what a reload of the new database gives.
    expectMemoryMatchesDatabase(db);
    const halvaine = g.game.actors.get('Ha1va1ne00000001');
    expect(halvaine.name).toBe('Halvaine');
    expect(halvaine.ownership).toEqual({ default: 0, Pl4yer0ne0000001: 3, Pl4yerTw00000002: 2 });
    expect(halvaine.flags).toEqual({ 'ten-segments': { sheetTab: 'spells' }, world: { portraitCredit: 'A. Painter' }, core: { sheetClass: 'ten-segments.CharacterSheet' } });
    expect(halvaine.items.map((i: any) => i.name)).toEqual(['Sleep', 'Magic Missile', 'Dagger']);
    expect(halvaine.items.get('MagicM1ss1le0002').system).toMatchObject({ memorized: 2, expended: 1, castingTime: { value: 1, unit: 'segments' } });
    expect(halvaine.items.get('Dagger0000000003').getFlag('ten-segments', 'favourite')).toBe(true);
    expect(g.game.actors.get('K0b0ld0000000006').system).toMatchObject({ hitDice: '½', movement: { base: 60, charge: 0 }, hp: { value: 2, max: 3 }, surprise: { surprisesOn: 3 } });
    const combat = g.game.combats.get('C0mbatKeep000001');
    const brand = combat.combatants.get('CbtBrand00000002');
    expect(brand.system.declaration).toEqual(REQUESTS.CbtBrand00000002);
    expect(brand.getFlag('ten-segments', 'declaration')).toBeUndefined();
    expect(brand.getFlag('ten-segments', 'lastTarget')).toBe('CbtOrcOne0000003');
    expect(combat.combatants.get('CbtOrcOne0000003').flags.world).toEqual({ morale: 'steady' });
    expect(combat.combatants.get('CbtOrcTwo0000004').system.declaration).toBeNull();
    expect(combat.groups.map((gr: any) => gr.system.side)).toEqual(['friendly', 'hostile']);
    // The unlinked orc's token still reads its own hp from its delta (the data model converts it).
    expect(g.game.scenes.get('Keep000000000001').tokens.get('TokOrcOne0000003').actor.system.hp.value).toBe(4);

    // One batched write per collection changed, then the version.
    expect(foundry.writes.all()).toEqual([
      expect.objectContaining({ documentName: 'Actor', action: 'update', count: 8, userId: foundry.users.gm.id }),
      // The embedded items, one batch per actor that has weapons or armour (Halvaine, Brand, Agathe, Orc 1, the kobold), then the world's.
      ...[1, 3, 1, 1, 1, 3].map((count) => expect.objectContaining({ documentName: 'Item', action: 'update', count, userId: foundry.users.gm.id })),
      expect.objectContaining({ documentName: 'Combat', action: 'update', count: 2, userId: foundry.users.gm.id }),
      expect.objectContaining({ documentName: 'Combatant', action: 'update', count: 4, userId: foundry.users.gm.id }),
      expect.objectContaining({ documentName: 'Setting', action: 'create', count: 1, userId: foundry.users.gm.id }),
    ]);
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(SCHEMA_VERSION);
    expect(foundry.notifications).toEqual([
      { type: 'info', message: `Migrating this world to Ten Segments data version ${SCHEMA_VERSION}. Please wait, and do not close the game until it is done.` },
      { type: 'info', message: `This world now uses Ten Segments data version ${SCHEMA_VERSION}.` },
    ]);
    expect(foundry.errors).toEqual([]);
    expect(foundry.deprecations).toEqual([]);
  });

  it('the migrated world starts a combat with the declarations it carried', async () => {
    await migrateWorld();
    const combat = g.game.combats.get('C0mbatKeep000001');
    foundry.dice.push(4, 5);
    await combat.startCombat();
    const declared = combat.flowState.declarations;
    expect(declared.CbtHalvaine00001).toMatchObject({ action: 'spell', spell: 'Sleep' });
    expect(declared.CbtBrand00000002).toMatchObject({ action: 'melee', target: 'CbtOrcOne0000003', weapon: { name: 'Long sword', length: 3.5 } });
    expect(declared.CbtOrcOne0000003).toMatchObject({ action: 'melee', target: 'CbtHalvaine00001' });
    expect(foundry.errors).toEqual([]);
  });

  it('a second run is a no-op: in the same session, and after a reload even with the version set back', async () => {
    await migrateWorld();
    foundry.writes.clear();
    expect(await migrateWorld()).toBeNull();
    expect(foundry.writes.count()).toBe(0);

    // Reload from the migrated database.
    const stored = structuredClone(db.data);
    ({ foundry, db } = await boot(generation, stored, SCHEMA_VERSION));
    expect(await migrateWorld()).toBeNull();
    expect(foundry.writes.count()).toBe(0);

    // Even told it is version 0 again, it finds nothing to convert: only the version is written.
    ({ foundry, db } = await boot(generation, stored, 0));
    const report = await migrateWorld();
    expect(report).toMatchObject({ actors: 0, items: 0, combats: 0, combatants: 0, groups: 0, failed: [] });
    expect(foundry.writes.all().map((w) => w.documentName)).toEqual(['Setting']);
    expect(db.data).toStrictEqual(stored);
    expect(foundry.notifications).toEqual([]);
    expect(foundry.errors).toEqual([]);
  });

  it('concurrent calls share one run', async () => {
    const [a, b] = await Promise.all([migrateWorld(), migrateWorld()]);
    expect(a).toBe(b);
    expect(foundry.writes.count('Actor')).toBe(1);
    expect(foundry.writes.count('Combatant')).toBe(1);
  });

  describe('documents that cannot be migrated', () => {
    const broken = (): StoredWorld => {
      const world: StoredWorld = structuredClone(FIXTURE);
      const monster = (id: string, name: string, system: Source) => ({ ...structuredClone(world.actors[3]), _id: id, name, items: [], system: { ...structuredClone(world.actors[3].system), ...system } });
      // Half-and-a-half hit dice: not readable even after conversion, so Foundry does not load it.
      world.actors.push(monster('Unreadab1e000009', 'Odd orc', { hitDice: 1.5 }));
      // -150 hp would be clamped to -100 by the model: converting it would lose the value.
      world.actors.push(monster('L0ssy00000000010', 'Bleeding orc', { hp: { value: '-150', max: '6' } }));
      // A declaration the engine does not know: the converted combatant is refused.
      world.combats[0].combatants.push({
        ...structuredClone(world.combats[0].combatants[3]),
        // Orc 2's actor (unlinked) with no token of its own: another orc, not Orc 2 again (one combatant per token).
        tokenId: null,
        _id: 'CbtDancer0000006',
        name: 'Dancer',
        flags: { 'ten-segments': { declaration: { action: 'dance' } } },
      });
      return world;
    };

    it('are reported and left unchanged, the others are migrated, and the version stays old', async () => {
      const world = broken();
      ({ foundry, db } = await boot(generation, world));
      expect(g.game.actors.invalidDocumentIds).toEqual(new Set(['Unreadab1e000009']));

      const report = (await migrateWorld())!;
      expect(report.failed.map((f) => [f.documentName, f.name, f.reason])).toEqual([
        ['Actor', 'Odd orc', 'Unreadable'],
        ['Actor', 'Bleeding orc', 'Lossy'],
        ['Combatant', 'Dancer', 'Refused'],
      ]);
      expect(report.failed[1].message).toBe('Actor "Bleeding orc" [L0ssy00000000010]: system.hp.value = -150 cannot be converted without losing it; the document was left unchanged.');
      expect(report.failed[2].message).toContain('Combatant "Dancer" [CbtDancer0000006]: the converted data was refused');
      expect(report.failed[2].message).toContain('dance');
      // Stored exactly as before.
      expect(db.find('actors', 'Unreadab1e000009')).toStrictEqual(world.actors.at(-2));
      expect(db.find('actors', 'L0ssy00000000010')).toStrictEqual(world.actors.at(-1));
      expect(db.find('combats', 'C0mbatKeep000001').combatants.at(-1)).toStrictEqual(world.combats[0].combatants.at(-1));
      // The others are migrated; the version is not raised.
      expect(report).toMatchObject({ actors: 8, combatants: 4 });
      expect(db.find('actors', 'Brand00000000002').system.movement).toEqual({ base: 90, charge: 0 });
      expect(foundry.writes.count('Setting')).toBe(0);
      expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(0);
      // The refusal was found before sending: Foundry logged no failed update.
      expect(foundry.errors).toEqual([]);

      // Again in the same session: what was migrated is not sent again; the same three are reported.
      foundry.writes.clear();
      const again = (await migrateWorld())!;
      expect(again.failed.map((f) => f.name)).toEqual(['Odd orc', 'Bleeding orc', 'Dancer']);
      expect(foundry.writes.count()).toBe(0);
    });

    it('at ready the GM is told how many documents could not be migrated', async () => {
      ({ foundry, db } = await boot(generation, broken()));
      const logged: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        await readySystem();
      } finally {
        console.error = original;
      }
      expect(foundry.notifications.at(-1)).toEqual({
        type: 'error',
        message: '3 documents could not be migrated to this version of Ten Segments; they are unchanged. See the console for details.',
      });
      expect(logged).toHaveLength(1);
    });

    it('once they are fixed, the next load completes the migration', async () => {
      ({ foundry, db } = await boot(generation, broken()));
      await migrateWorld();
      // The GM repairs the stored data (here: removes the three) and reloads.
      const stored = structuredClone(db.data);
      stored.actors = stored.actors.filter((a) => !['Unreadab1e000009', 'L0ssy00000000010'].includes(a._id));
      stored.combats[0].combatants.pop();
      ({ foundry, db } = await boot(generation, stored, 0));
      const report = await migrateWorld();
      expect(report).toMatchObject({ actors: 0, combatants: 0, failed: [] });
      expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(SCHEMA_VERSION);
      const expected = expectedAfterMigration();
      expect(db.data.actors.map(withoutStats)).toStrictEqual(expected.actors.map(withoutStats));
    });
  });

  it('without the stored world data it migrates nothing and keeps the version', async () => {
    delete g.game.data;
    const report = await migrateWorld();
    expect(report?.failed.map((f) => f.reason)).toEqual(['NoStoredData']);
    expect(foundry.writes.count()).toBe(0);
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(0);
  });

  describe('who migrates', () => {
    it('players and GMs who are not the active GM do nothing', async () => {
      const assistant = foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
      expect(g.game.users.activeGM.id).toBe(foundry.users.gm.id);
      expect(await foundry.asUser(foundry.users.player, () => migrateWorld())).toBeNull();
      expect(await foundry.asUser(assistant, () => migrateWorld())).toBeNull();
      expect(foundry.writes.count()).toBe(0);
      expect(db.data).toStrictEqual(FIXTURE);
      expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(0);
    });

    it('with the GM away, the assistant GM is the active GM and migrates', async () => {
      const assistant = foundry.users.add({ name: 'Assistant', role: g.CONST.USER_ROLES.ASSISTANT });
      foundry.users.setActive(foundry.users.gm, false);
      // The GM's client is gone; on the assistant's, the assistant is the active GM.
      expect(await foundry.client(assistant).run(() => g.game.users.activeGM?.id)).toBe(assistant.id);
      const report = await foundry.asUser(assistant, () => migrateWorld());
      expect(report).toMatchObject({ actors: 8, combatants: 4, failed: [] });
      expect(foundry.writes.count()).toBeGreaterThan(0);
      expect(foundry.writes.all().every((w) => w.userId === assistant.id)).toBe(true);
      expect(await foundry.client(assistant).run(() => g.game.settings.get('ten-segments', 'schemaVersion'))).toBe(SCHEMA_VERSION);
    });
  });
});
