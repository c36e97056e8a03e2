/**
 * World schema 5: the fields individual-speed's Defense, Armour, critical
 * hits and Combat Injuries read (seed 003: "a Defense score equal to 10 plus
 * its Agility modifier plus its Defense bonus"; "most pieces of armour grant a
 * bonus to Defense and/or Armour when worn"; "the weapon attack critical
 * multiplier"; "the Combat Injury table that corresponds with the type of
 * damage"). Nothing stored says what they are, so every actor and item gets
 * the rules' defaults where it has none, and loses nothing it had.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { beforeEach, describe, expect, it } from 'vitest';
import { migrateWorld, SCHEMA_VERSION } from '../../src/documents/migration';
import { toEngineCombatant } from '../../src/data/engine-view';
import { boot, expectMemoryMatchesDatabase, withoutStats, type Database, type Source, type StoredWorld } from './stored-world';

const g = globalThis as any;

const stats = { coreVersion: '13.345', systemId: 'ten-segments', systemVersion: '0.1.0', createdTime: 1700000100000, modifiedTime: 1700000105000, lastModifiedBy: 'GameMaster000001' };
const doc = (source: Source): Source => ({ img: 'icons/x.svg', effects: [], folder: null, sort: 0, ownership: { default: 0 }, flags: {}, _stats: stats, ...source });

/** A world as schema 4 stored it: no Defense, Armour, attack bonus, critical multiplier or damage types anywhere. */
function schema4(): StoredWorld {
  const mace = doc({ _id: 'Mace000000000001', name: 'Mace', type: 'weapon', system: { damage: { small: '1d6+1', large: '1d6' }, speed: 4, kind: 'melee', equipped: true } });
  const pick = doc({ _id: 'P1ck000000000002', name: 'War pick', type: 'weapon', system: { damage: { small: '1d6', large: '1d6' }, critical: 4 }, flags: { world: { forged: 'dwarves' } } });
  const mail = doc({ _id: 'Ma1l000000000003', name: 'Mail', type: 'armor', system: { ac: 5, bonus: 1, bulk: 'fairly', equipped: true } });
  const rope = doc({ _id: 'R0pe000000000004', name: 'Rope', type: 'gear', system: { weight: 10, quantity: 1 } });
  const sleep = doc({ _id: 'Sl33p00000000005', name: 'Sleep', type: 'spell', system: { level: 1, memorized: 1 } });
  return {
    actors: [
      doc({
        _id: 'Kestre1000000001',
        name: 'Kestrel',
        type: 'character',
        system: { hp: { value: 12, max: 12 }, individual: { agility: 2, insight: 0, stress: { value: 8, max: 8 }, wounds: { value: 12, max: 12 } } },
        items: [mace, mail, sleep],
        flags: { world: { portrait: 'kestrel.webp' } },
      }),
      // A monster stored with no individual-speed data at all.
      doc({ _id: 'H0bg0b1in0000002', name: 'Hobgoblin', type: 'monster', system: { hitDice: '1', hp: { value: 6, max: 6 }, aac0: '19' }, items: [pick] }),
    ],
    items: [rope, doc({ ...mail, _id: 'Sh1eld0000000006', name: 'Shield', system: { ac: 9, bonus: 0, defense: 2 } })],
    scenes: [],
    combats: [],
  };
}

describe.each([13, 14] as const)('world migration to schema 5, generation %i', (generation) => {
  let db: Database;
  let foundry: Awaited<ReturnType<typeof boot>>['foundry'];
  beforeEach(async () => {
    ({ foundry, db } = await boot(generation, schema4(), 4));
  });

  it('every actor and item gets the defaults where it has none; every value it had is kept', async () => {
    const report = await migrateWorld();
    // Two actors; the mace, the mail and the war pick, then the world's shield and rope (the rope: version 6's device).
    expect(report).toMatchObject({ from: 4, to: SCHEMA_VERSION, actors: 2, items: 5, failed: [] });
    const expected = schema4();
    const [kestrel, hobgoblin] = expected.actors;
    kestrel.system.individual = { ...kestrel.system.individual, defense: 0, armour: 0, attackBonus: 0 };
    hobgoblin.system.individual = { defense: 0, armour: 0, attackBonus: 0 };
    Object.assign(kestrel.items[0].system, { critical: 2, damageTypes: [] });
    Object.assign(kestrel.items[1].system, { defense: 0, armour: 0 });
    // The war pick's x4 stays (a value already there is kept); it gains its damage types.
    Object.assign(hobgoblin.items[0].system, { damageTypes: [] });
    Object.assign(expected.items[1].system, { armour: 0 });
    // Version 6 (issue 28, migration-v6.test.ts): Kestrel (no class) and the hobgoblin do not turn undead; the rope is no magic device.
    kestrel.system.details = { turnsUndead: false };
    hobgoblin.system.turnsUndead = false;
    Object.assign(expected.items[0].system, { device: false });
    expect(db.data.actors.map(withoutStats)).toStrictEqual(expected.actors.map(withoutStats));
    expect(db.data.items.map(withoutStats)).toStrictEqual(expected.items.map(withoutStats));
    expectMemoryMatchesDatabase(db);
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(SCHEMA_VERSION);
    expect(foundry.errors).toEqual([]);
  });

  it('the migrated actors read into the engine: Defense bonus and Armour of the mail worn, the pick\'s x4', async () => {
    await migrateWorld();
    await g.game.items.get('Sh1eld0000000006').update({ 'system.armour': 1 });
    const kestrel = g.game.actors.get('Kestre1000000001');
    await kestrel.items.get('Ma1l000000000003').update({ 'system.defense': 1, 'system.armour': 4 });
    const view = (actor: any) => toEngineCombatant({ id: actor.id, name: actor.name, type: actor.type, system: actor.system, items: actor.items.contents }, { id: 'c', side: 's' });
    expect(view(kestrel)).toMatchObject({ ok: true, value: { agilityModifier: 2, defenseBonus: 1, armour: 4 } });
    const hobgoblin = g.game.actors.get('H0bg0b1in0000002');
    expect(hobgoblin.items.get('P1ck000000000002').system.critical).toBe(4);
  });

  it('a second run changes nothing', async () => {
    await migrateWorld();
    foundry.writes.clear();
    const stored = structuredClone(db.data);
    ({ foundry, db } = await boot(generation, stored, 4));
    const again = await migrateWorld();
    expect(again).toMatchObject({ actors: 0, items: 0, failed: [] });
    expect(foundry.writes.all().map((w) => w.documentName)).toEqual(['Setting']);
    expect(db.data).toStrictEqual(stored);
  });
});
