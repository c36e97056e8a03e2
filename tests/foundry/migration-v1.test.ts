/**
 * Running combats stored by schema 1 (the whole flow as one JSON string plus
 * an undo history of reverse patches) become combat logs (schema 2) and play
 * on: the GM who updates mid-combat finds each combat where it was, Next goes
 * on, and Previous walks back through the old history step by step.
 *
 * The fixture tests/foundry/fixtures/world-v1-combats.json is what the code of
 * commit 3ee8776 stored: one running combat per procedure, each in round 2
 * after a round in which Halvaine was hit while casting
 * (world-v1-combats.generator.md says how it was made). The expected values
 * below are read from the old stored text itself, not from the converter.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FoundryHandle } from '../standin';
import { migrateWorld, SCHEMA_VERSION } from '../../src/documents/migration';
import type { Json, PatchOp } from '../../src/rules/journal';
import { patch } from '../../src/rules/journal-diff';
import { whenIdle } from '../../src/documents/queries';
import { boot, expectMemoryMatchesDatabase, type Database, type StoredWorld } from './stored-world';

const g = globalThis as any;
const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/world-v1-combats.json', import.meta.url), 'utf8'));
const STORED: StoredWorld = { actors: FIXTURE.actors, items: FIXTURE.items, scenes: FIXTURE.scenes, combats: FIXTURE.combats };

/** What a GM sees of a flow state: where the combat is, who declared what, everyone's health. */
interface Seen {
  procedure: string;
  round: number;
  stage: string;
  step: number;
  declared: string[];
  hp: Record<string, number>;
  conditions: Record<string, string>;
  steps: number | null;
}

function seenOld(old: any): Seen {
  const states = old.progress?.states ?? {};
  const declaring = old.stage === 'declare';
  return {
    procedure: old.procedure,
    round: old.round,
    stage: old.stage,
    step: declaring ? 0 : old.step,
    declared: Object.keys(old.declarations ?? {}).sort(),
    hp: Object.fromEntries(Object.entries(states).map(([id, s]: [string, any]) => [id, s.hp])),
    conditions: Object.fromEntries(Object.entries(states).map(([id, s]: [string, any]) => [id, s.condition])),
    steps: declaring || !old.schedule ? null : old.schedule.steps.length,
  };
}

function seenNew(state: any): Seen {
  return {
    procedure: state.procedure,
    round: state.round,
    stage: state.stage,
    step: state.step,
    declared: Object.keys(state.declarations).sort(),
    hp: Object.fromEntries(Object.entries(state.states).map(([id, s]: [string, any]) => [id, s.hp])),
    conditions: Object.fromEntries(Object.entries(state.states).map(([id, s]: [string, any]) => [id, s.condition])),
    steps: state.schedule ? state.schedule.steps.length : null,
  };
}

/** The old stored states of a combat, oldest first, by applying its reverse patches to its stored flow. */
function oldStates(source: any): any[] {
  const newest = JSON.parse(source.system.flow);
  const patches: PatchOp[][] = source.system.history.map((h: string) => JSON.parse(h));
  const out = [newest];
  for (let i = patches.length - 1; i >= 0; i--) out.unshift(patch(out[0] as Json, patches[i]));
  return out;
}

describe.each([13, 14] as const)('running combats stored by schema 1, generation %i', (generation) => {
  let foundry: FoundryHandle;
  let db: Database;

  beforeEach(async () => {
    ({ foundry, db } = await boot(generation, STORED, 1));
  });

  it('become logs that read as the same combats: round, stage, step, declarations, health, schedule', async () => {
    const report = await migrateWorld();
    expect(report).toMatchObject({ from: 1, to: SCHEMA_VERSION, combats: 5, failed: [] });
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(SCHEMA_VERSION);

    const procedures = new Set<string>();
    for (const source of STORED.combats as any[]) {
      const stored = db.find('combats', source._id);
      // Stored now: the schema and the log. The old text stays beside them, unread: core's client drops the
      // deletion of a key the data model does not define from an update.
      expect(Object.keys(stored.system).sort()).toEqual(['flow', 'history', 'log', 'version']);
      expect(stored.system.flow).toBe(source.system.flow);
      expect(stored.system.version).toBe(2);
      // One entry for the oldest state kept, one per transition the old history could undo.
      expect(Object.keys(stored.system.log)).toHaveLength(source.system.history.length + 1);
      const combat = g.game.combats.get(source._id);
      expect(Object.keys(combat._source.system).sort()).toEqual(['log', 'version']); // what the data model reads
      const old = JSON.parse(source.system.flow);
      expect(seenNew(combat.flowState)).toEqual(seenOld(old));
      expect(combat.round).toBe(source.round);
      expect(combat.turn).toBe(source.turn);
      procedures.add(old.procedure);
    }
    expect(procedures.size).toBe(5);
    expectMemoryMatchesDatabase(db);
    expect(foundry.errors).toEqual([]);
  });

  it('Previous walks back through the old history state by state, to the oldest state it kept', async () => {
    for (const source of STORED.combats as any[]) {
      // Each combat in a world of its own: the fixture's five combats share their (linked) actors, and the
      // active GM records any change of an actor's health as a hit in every running combat it fights in.
      ({ foundry, db } = await boot(generation, { ...STORED, combats: [source] }, 1));
      await migrateWorld();
      const combat = g.game.combats.get(source._id);
      const expected = oldStates(source);
      for (let i = expected.length - 1; i >= 1; i--) {
        expect(seenNew(combat.flowState), `${combat.flowState.procedure} at old state ${i}`).toEqual(seenOld(expected[i]));
        await combat.previousTurn();
        await whenIdle();
      }
      expect(seenNew(combat.flowState)).toEqual(seenOld(expected[0]));
      // The oldest state the old history reached is the floor.
      foundry.notifications.length = 0;
      await combat.previousTurn();
      expect(foundry.notifications.at(-1)).toEqual({ type: 'error', message: 'There is no earlier step to go back to.' });
      expect(seenNew(combat.flowState)).toEqual(seenOld(expected[0]));
    }
    expect(foundry.errors).toEqual([]);
  });

  it('play goes on into round 3 with the declarations they had, and Previous comes back to exactly the migrated state', async () => {
    await migrateWorld();
    for (const source of STORED.combats as any[]) {
      const combat = g.game.combats.get(source._id);
      const migrated = structuredClone(combat.flowState);
      const entries = Object.keys(combat.system.log).length;
      let moves = 0;
      // On to the declarations of round 3: the old round finishes under the new engine.
      while (!(combat.flowState.round === 3 && combat.flowState.stage === 'declare') && moves < 60) {
        await combat.nextTurn();
        await whenIdle();
        moves++;
      }
      expect(combat.flowState.round, combat.flowState.procedure).toBe(3);
      expect(combat.flowState.stage).toBe('declare');
      // Round 3 is played with the same declarations where the combatants can still act (none are refused outright).
      await combat.nextTurn();
      await whenIdle();
      moves++;
      expect(combat.flowState.stage).not.toBe('declare');
      expect(combat.flowState.schedule.steps.length).toBeGreaterThan(0);
      for (let i = 0; i < moves; i++) {
        await combat.previousTurn();
        await whenIdle();
      }
      expect(combat.flowState).toStrictEqual(migrated);
      expect(Object.keys(combat.system.log)).toHaveLength(entries);
    }
    expectMemoryMatchesDatabase(db);
    expect(foundry.errors).toEqual([]);
  });

  it('run again after play (a run whose version was not raised, then a reload): the log play wrote stands, not one rebuilt from the old text', async () => {
    await migrateWorld();
    const source = STORED.combats[0] as any;
    let combat = g.game.combats.get(source._id);
    await combat.nextTurn();
    await whenIdle();
    const played = structuredClone(combat.flowState);
    const log = structuredClone(combat.system.log);
    // The database still holds the old text beside the log; a reload told it is version 1 plans the combats again.
    ({ foundry, db } = await boot(generation, structuredClone(db.data), 1));
    const report = await migrateWorld();
    expect(report).toMatchObject({ combats: 0, failed: [] });
    combat = g.game.combats.get(source._id);
    expect(combat.system.log).toStrictEqual(log);
    expect(combat.flowState).toStrictEqual(played);
    expect(foundry.errors).toEqual([]);
  });

  it('a combatant added in the middle of a migrated round waits for the next round (the old steps have no time to join at)', async () => {
    await migrateWorld();
    for (const source of STORED.combats as any[]) {
      const combat = g.game.combats.get(source._id);
      const before = structuredClone(combat.flowState);
      const orc = combat.combatants.find((c: any) => c.name === 'Orc 2');
      const brand = combat.combatants.find((c: any) => c.name === 'Brand');
      // Another orc (an actor of its own: Orc 2's actor is linked, so a second combatant of it would be Orc 2 again),
      // added with a declaration already made: it would act this round if the round had times to join at.
      const { _id: _orcId, ...orcData } = g.game.actors.get(orc.actorId).toObject();
      const orc3 = await g.Actor.create({ ...orcData, name: 'Orc 3' });
      const [late] = await combat.createEmbeddedDocuments('Combatant', [
        { actorId: orc3.id, name: 'Orc 3', group: orc._source.group, system: { declaration: { action: 'melee', target: brand.id } } },
      ]);
      await foundry.settle();
      await whenIdle();
      const state = combat.flowState;
      expect(state.encounter.combatants.map((c: any) => c.id)).toContain(late.id);
      // The round being played is unchanged: same steps, same entries.
      expect(state.schedule).toStrictEqual(before.schedule);
      // The next round plans the newcomer with everyone else.
      while (combat.flowState.stage !== 'declare') {
        await combat.nextTurn();
        await whenIdle();
      }
      expect(combat.flowState.declarations[late.id]).toMatchObject({ action: 'melee', target: brand.id });
      await combat.nextTurn();
      await whenIdle();
      const acting = combat.flowState.schedule.steps.flatMap((s: any) => s.entries.map((e: any) => e.combatant));
      expect(acting, combat.flowState.procedure).toContain(late.id);
    }
    expect(foundry.errors).toEqual([]);
  });

  it('a running combat whose stored text cannot be read is reported, left as it was, and cannot be started over it', async () => {
    const world: StoredWorld = structuredClone(STORED);
    const broken = world.combats[0] as any;
    broken.system.flow = '{"procedure": "segment-d6", …';
    ({ foundry, db } = await boot(generation, world, 1));
    const report = (await migrateWorld())!;
    expect(report.failed.map((f) => [f.documentName, f.reason])).toEqual([['Combat', 'Unreadable']]);
    expect(db.find('combats', broken._id).system).toStrictEqual(broken.system);
    expect(g.game.settings.get('ten-segments', 'schemaVersion')).toBe(1);
    const combat = g.game.combats.get(broken._id);
    expect(combat.flowState).toBeNull();
    foundry.writes.clear();
    await combat.startCombat();
    expect(foundry.notifications.at(-1)?.type).toBe('error');
    expect(foundry.notifications.at(-1)?.message).toContain('saved by an older version of Ten Segments');
    expect(foundry.writes.count('Combat')).toBe(0);
    expect(db.find('combats', broken._id).system).toStrictEqual(broken.system);
  });
});
