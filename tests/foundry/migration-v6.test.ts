/**
 * World schema 6 (issue 28): turning undead and using a magic device are offered only to one who has them. The
 * seeds name both as actions (seed 004's action list: "D missiles · turn undead · cast spell · use device"; its note
 * 20: device usage "assuming the wielder is still alive") but not who has them: the sheet says it. A character
 * stored by schema 5 turns where its class turns (a cleric or paladin); no monster turns; no gear is a device until
 * the GM marks it one. A value already there is kept; the in-memory data model reads the same before the migration.
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
const individual = { agility: 0, insight: 0, stress: { value: 0, max: 0 }, wounds: { value: 0, max: 0 }, defense: 0, armour: 0, attackBonus: 0 };
const character = (id: string, name: string, className: string, items: Source[] = []): Source =>
  doc({ _id: id, name, type: 'character', system: { hp: { value: 10, max: 10 }, details: { className, level: 3 }, individual }, items });

/** A world as schema 5 stored it: no "Turns undead", no "Magic device" anywhere. */
function schema5(): StoredWorld {
  const wand = doc({ _id: 'Wand000000000001', name: 'Wand of frost', type: 'gear', system: { weight: 1, quantity: 1 } });
  const rope = doc({ _id: 'R0pe000000000002', name: 'Rope', type: 'gear', system: { weight: 10, quantity: 1 } });
  return {
    actors: [
      character('Agathe0000000001', 'Sister Agathe', 'Cleric'),
      character('Uther00000000002', 'Uther', 'Half-elf paladin'),
      character('Hildegard0000003', 'Hildegard', 'Kleriker'),
      character('Brand00000000004', 'Brand', 'Fighter', [wand]),
      character('N0class000000005', 'Nobody', ''),
      doc({ _id: 'Ske1et0n00000006', name: 'Skeleton', type: 'monster', system: { hitDice: '1', hp: { value: 4, max: 4 }, aac0: '19', individual } }),
    ],
    items: [rope],
    scenes: [],
    combats: [],
  };
}

const view = (actor: any) => toEngineCombatant({ id: actor.id, name: actor.name, type: actor.type, system: actor.system, items: actor.items.contents }, { id: 'c', side: 's' });

describe.each([13, 14] as const)('world migration to schema 6, generation %i', (generation) => {
  let db: Database;
  let foundry: Awaited<ReturnType<typeof boot>>['foundry'];
  beforeEach(async () => {
    ({ foundry, db } = await boot(generation, schema5(), 5));
  });

  it('before the migration the data model already reads it: the cleric, the paladin and the Kleriker turn; the fighter, the classless and the skeleton do not', () => {
    const turns = Object.fromEntries(g.game.actors.contents.map((a: any) => [a.name, view(a).ok && (view(a) as any).value.turnsUndead]));
    expect(turns).toEqual({ 'Sister Agathe': true, Uther: true, Hildegard: true, Brand: false, Nobody: false, Skeleton: false });
    // The wand is no device until the GM says so: nothing stored tells a wand from a walking stick.
    expect(view(g.game.actors.get('Brand00000000004'))).toMatchObject({ ok: true, value: { devices: [] } });
  });

  it('writes each actor\'s turning and each gear\'s device, and keeps every value it had', async () => {
    const report = await migrateWorld();
    expect(report).toMatchObject({ from: 5, to: SCHEMA_VERSION, actors: 6, items: 2, failed: [] });
    const expected = schema5();
    const turning: Record<string, boolean> = { Agathe0000000001: true, Uther00000000002: true, Hildegard0000003: true };
    for (const a of expected.actors) {
      if (a.type === 'character') a.system.details.turnsUndead = turning[a._id] ?? false;
      else a.system.turnsUndead = false;
    }
    expected.actors[3].items[0].system.device = false;
    expected.items[0].system.device = false;
    expect(db.data.actors.map(withoutStats)).toStrictEqual(expected.actors.map(withoutStats));
    expect(db.data.items.map(withoutStats)).toStrictEqual(expected.items.map(withoutStats));
    expectMemoryMatchesDatabase(db);
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(SCHEMA_VERSION);
    expect(foundry.errors).toEqual([]);
  });

  it('a turning already stored is kept: a cleric the GM unticked stays unticked', async () => {
    const stored = schema5();
    stored.actors[0].system.details.turnsUndead = false;
    ({ foundry, db } = await boot(generation, stored, 5));
    expect(view(g.game.actors.get('Agathe0000000001'))).toMatchObject({ ok: true, value: { turnsUndead: false } });
    await migrateWorld();
    expect(db.find('actors', 'Agathe0000000001').system.details.turnsUndead).toBe(false);
  });

  it('a second run changes nothing', async () => {
    await migrateWorld();
    const stored = structuredClone(db.data);
    ({ foundry, db } = await boot(generation, stored, 5));
    const again = await migrateWorld();
    expect(again).toMatchObject({ actors: 0, items: 0, failed: [] });
    expect(foundry.writes.all().map((w) => w.documentName)).toEqual(['Setting']);
    expect(db.data).toStrictEqual(stored);
  });
});
