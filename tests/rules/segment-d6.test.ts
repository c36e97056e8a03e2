/**
 * Procedure segment-d6 (seed 000_4031a11650ac9447.txt and the rulings of
 * seeds/README.md). Every test names the passage or ruling it checks.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dice, ScriptedRoll } from '../../src/rules/dice';
import { RandomDice, ScriptedDice } from '../../src/rules/dice';
import type { ActionKind, Combatant, CombatantState, Declaration, Side } from '../../src/rules/model';
import type { Casting, Encounter, InitiativeResult, RoundInput, Schedule, SurpriseResult } from '../../src/rules/procedure';
import { resolveOptions } from '../../src/rules/procedure';
import { MAX_ROUTINES, REASON, segmentD6Procedure as d6, type SegmentD6Options } from '../../src/rules/procedures/segment-d6';
import type { DamageEvent } from '../../src/rules/play';
import { actorsByStep, playCombat, playSchedule } from '../../src/rules/play';
import { initialStates } from '../../src/rules/round';

/* ---------------------------------------------------------------- fixtures */

const opts: SegmentD6Options = { ...d6.defaults };
const withOpts = (o: Partial<SegmentD6Options>): SegmentD6Options => ({ ...d6.defaults, ...o }) as SegmentD6Options;

const party: Side = { id: 'party', name: 'Party' };
const orcs: Side = { id: 'orcs', name: 'Orcs' };

function encounter(combatants: Combatant[], sides: Side[] = [party, orcs]): Encounter {
  return { sides, combatants };
}

const halvaine: Combatant = { id: 'halvaine', name: 'Halvaine the Arcane', side: 'party', hp: 6, spells: ['Sleep', 'Web'] };
const fighter: Combatant = { id: 'fighter', name: 'Fighter', side: 'party', hp: 10 };
const orc: Combatant = { id: 'orc', name: 'Orc', side: 'orcs', hp: 5 };
const orc2: Combatant = { id: 'orc2', name: 'Orc 2', side: 'orcs', hp: 5 };

const melee = (combatant: string, target?: string, extra: Partial<Declaration> = {}): Declaration => ({
  combatant,
  action: 'melee',
  ...(target ? { target } : {}),
  ...extra,
});
const spell = (combatant: string, name: string, castingTime: number, target?: string): Declaration => ({
  combatant,
  action: 'spell',
  spell: name,
  castingTime,
  ...(target ? { target } : {}),
});

function input(enc: Encounter, declarations: Record<string, Declaration>, extra: Partial<RoundInput> = {}): RoundInput {
  return {
    round: 1,
    declarations,
    states: initialStates(enc),
    surprise: null,
    baseInitiative: {},
    carryIn: [],
    ...extra,
  };
}

function initiative(sides: Record<string, number>, round = 1): InitiativeResult {
  return { round, sides, individuals: {}, winner: null };
}

/** Plan a round from side dice (the die each side rolled). */
function plan(enc: Encounter, declarations: Record<string, Declaration>, dice: Record<string, number>, o = opts, extra: Partial<RoundInput> = {}) {
  return d6.planRound(enc, input(enc, declarations, extra), initiative(dice, extra.round ?? 1), o);
}

/** Segments in which a combatant has entries of a kind. */
function segmentsOf(schedule: Schedule, combatant: string, kind?: string): number[] {
  const out: number[] = [];
  for (const s of schedule.steps) {
    for (const e of s.entries) if (e.combatant === combatant && (!kind || e.kind === kind)) out.push(s.segment as number);
  }
  return out;
}

function stepIndexOf(schedule: Schedule, combatant: string, kind: string, nth = 0): number {
  const hits: number[] = [];
  schedule.steps.forEach((s, i) => {
    if (s.entries.some((e) => e.combatant === combatant && e.kind === kind)) hits.push(i);
  });
  return hits[nth] ?? -1;
}

const noSurpriseDice = (sides: string[]): ScriptedRoll[] => sides.map((side) => ({ purpose: 'surprise', side, result: 5 }));
const init = (side: string, result: number, round = 1): ScriptedRoll => ({ purpose: 'initiative', side, round, result });

/* ============================================================ 1. Determine Surprise */

describe('segment-d6 · 1. Determine Surprise', () => {
  it('"Each side rolls a d6": a roll of 1 surprises for one segment, 2 for two, 3-6 not at all', () => {
    const enc = encounter([fighter, orc, { ...orc2, side: 'goblins' }], [party, orcs, { id: 'goblins', name: 'Goblins' }]);
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 1 },
      { purpose: 'surprise', side: 'orcs', result: 2 },
      { purpose: 'surprise', side: 'goblins', result: 3 },
    ]);
    const s = d6.rollSurprise(enc, dice, opts);
    expect(s.unit).toBe('segments');
    expect(s.rolls).toEqual({ party: 1, orcs: 2, goblins: 3 });
    expect(s.surprised).toEqual({ fighter: 1, orc: 2, orc2: 0 });
    // The request names its purpose, side and round (scenario files script them this way).
    expect(dice.log.map((l) => l.request)).toContainEqual({ purpose: 'surprise', count: 1, faces: 6, side: 'party', round: 0 });
  });

  it('"if the party rolls a 1 and the monsters roll a 2 ... the party has one surprise segment in which to act"', () => {
    const enc = encounter([halvaine, fighter, orc, orc2]);
    const s = d6.rollSurprise(enc, new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 1 },
      { purpose: 'surprise', side: 'orcs', result: 2 },
    ]), opts);
    const decls = { fighter: melee('fighter', 'orc'), halvaine: melee('halvaine', 'orc'), orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') };
    const sch = d6.planSurprise(enc, s, decls, opts)!;
    expect(sch.round).toBe(0);
    expect(sch.steps).toHaveLength(1);
    expect(sch.steps[0].phase).toBe('d6-surprise');
    expect(sch.steps[0].segment).toBe(2);
    expect(sch.steps[0].entries.map((e) => e.combatant).sort()).toEqual(['fighter', 'halvaine']);
  });

  it('"If the party rolls a 2 and the monsters roll a 5 ... the monsters ... have both of those 2 surprise segments in which to act"', () => {
    const enc = encounter([fighter, orc]);
    const s = d6.rollSurprise(enc, new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 2 },
      { purpose: 'surprise', side: 'orcs', result: 5 },
    ]), opts);
    const sch = d6.planSurprise(enc, s, { fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }, opts)!;
    expect(sch.steps.map((st) => st.segment)).toEqual([1, 2]);
    expect(sch.steps.map((st) => st.entries.map((e) => e.combatant))).toEqual([['orc'], ['orc']]);
  });

  it('"if the monsters rolled a 1, the party rolled a 2, and one party member had a +2 surprise bonus" — the worked example', () => {
    const nimble: Combatant = { id: 'nimble', name: 'Nimble', side: 'party', hp: 6, surpriseAdjustment: 2 };
    const enc = encounter([fighter, nimble, orc]);
    const s = d6.rollSurprise(enc, new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 2 },
      { purpose: 'surprise', side: 'orcs', result: 1 },
    ]), opts);
    // "The party member is not surprised at all, because two segments of surprise are negated by his +2 bonus."
    expect(s.surprised).toEqual({ fighter: 2, nimble: 0, orc: 1 });
    const sch = d6.planSurprise(enc, s, { fighter: melee('fighter'), nimble: melee('nimble', 'orc'), orc: melee('orc', 'fighter') }, opts)!;
    // "the unsurprised party member may act during that first surprise segment"
    expect(sch.steps[0].segment).toBe(1);
    expect(sch.steps[0].entries.map((e) => e.combatant)).toEqual(['nimble']);
    // "both the monsters and the one unsurprised character can all take action during the second surprise segment"
    expect(sch.steps[1].segment).toBe(2);
    expect(sch.steps[1].entries.map((e) => e.combatant).sort()).toEqual(['nimble', 'orc']);
    expect(sch.steps).toHaveLength(2);
  });

  it('"Dexterity cannot create surprise, only alter the number of segments"; a penalty adds segments where the side is surprised (README ruling)', () => {
    const clumsy: Combatant = { id: 'clumsy', name: 'Clumsy', side: 'party', hp: 6, surpriseAdjustment: -2 };
    const enc = encounter([clumsy, orc]);
    const notSurprised = d6.rollSurprise(enc, new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 4 },
      { purpose: 'surprise', side: 'orcs', result: 4 },
    ]), opts);
    expect(notSurprised.surprised.clumsy).toBe(0);
    const surprised = d6.rollSurprise(enc, new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 1 },
      { purpose: 'surprise', side: 'orcs', result: 4 },
    ]), opts);
    expect(surprised.surprised.clumsy).toBe(3);
  });

  it('"Against a monster that surprises on 1-3, if the party rolls a 3 ... the monster would have three surprise segments in which to act"', () => {
    const lurker: Combatant = { id: 'lurker', name: 'Lurker', side: 'orcs', hp: 20, surprisesOn: 3 };
    const enc = encounter([fighter, lurker]);
    const s = d6.rollSurprise(enc, new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 3 },
      { purpose: 'surprise', side: 'orcs', result: 6 },
    ]), opts);
    const sch = d6.planSurprise(enc, s, { fighter: melee('fighter'), lurker: melee('lurker', 'fighter') }, opts)!;
    expect(segmentsOf(sch, 'lurker')).toEqual([1, 2, 3]);
    expect(segmentsOf(sch, 'fighter')).toEqual([]);
  });

  it('"the monsters will not need to make a surprise roll at all" when alerted; a side that can never be surprised does not roll either', () => {
    const golem: Combatant = { id: 'golem', name: 'Golem', side: 'golems', hp: 30, neverSurprised: true };
    const enc = encounter([fighter, orc, golem], [party, { ...orcs, alerted: true }, { id: 'golems', name: 'Golems' }]);
    const dice = new ScriptedDice([{ purpose: 'surprise', side: 'party', result: 2 }]);
    const s = d6.rollSurprise(enc, dice, opts);
    expect(Object.keys(s.rolls)).toEqual(['party']);
    expect(s.surprised).toEqual({ fighter: 2, orc: 0, golem: 0 });
    expect(dice.unused()).toEqual([]);
  });

  it('"If neither of the opposing forces is surprised, play moves on to the regular combat round": no surprise schedule', () => {
    const enc = encounter([fighter, orc]);
    const s = d6.rollSurprise(enc, new ScriptedDice(noSurpriseDice(['party', 'orcs'])), opts);
    expect(d6.planSurprise(enc, s, { fighter: melee('fighter'), orc: melee('orc') }, opts)).toBeNull();
  });

  it('both sides surprised for the same count: nobody can act before round 1, so no surprise schedule', () => {
    const enc = encounter([fighter, orc]);
    const s: SurpriseResult = { rolls: { party: 2, orcs: 2 }, surprised: { fighter: 2, orc: 2 }, unit: 'segments' };
    expect(d6.planSurprise(enc, s, { fighter: melee('fighter'), orc: melee('orc') }, opts)).toBeNull();
  });

  it('"nor can a spell be fully cast unless it is a one-segment spell": a 1-segment spell begun in surprise segment 1 goes off in 2', () => {
    const enc = encounter([halvaine, orc]);
    const s: SurpriseResult = { rolls: { orcs: 2 }, surprised: { halvaine: 0, orc: 2 }, unit: 'segments' };
    const sch = d6.planSurprise(enc, s, { halvaine: spell('halvaine', 'Sleep', 1, 'orc') }, opts)!;
    expect(segmentsOf(sch, 'halvaine', 'cast-begin')).toEqual([1]);
    expect(segmentsOf(sch, 'halvaine', 'cast-complete')).toEqual([2]);
    expect(sch.castings[0]).toMatchObject({ castingTime: 1, remaining: 0, beganRound: 0 });
    expect(sch.carryOut).toEqual([]);
    // The caster begins its one spell once, not again in segment 2.
    expect(segmentsOf(sch, 'halvaine', 'cast-begin')).toHaveLength(1);
  });

  it('a longer spell begun in a surprise segment carries into round 1 (README: goes off at S + casting time) and goes off there', () => {
    const enc = encounter([halvaine, orc]);
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 5 },
      { purpose: 'surprise', side: 'orcs', result: 2 },
      init('party', 3),
      init('orcs', 1),
    ]);
    // Begins in surprise segment 1, casting time 3: 1 + 3 = 4, past the 2 surprise segments → segment 2 of round 1.
    const log = playCombat(d6, enc, opts, dice, {
      rounds: 1,
      declarations: (round): Record<string, Declaration> =>
        round === 0 ? { halvaine: spell('halvaine', 'Web', 3, 'orc') } : { orc: melee('orc', 'halvaine') },
      damage: [],
    });
    expect(log.surpriseRound?.carryOut).toHaveLength(1);
    expect(log.surpriseRound?.carryOut[0].remaining).toBe(2);
    const r1 = log.rounds[0];
    const off = r1.steps.find((s) => s.entries.some((e) => e.entry.kind === 'cast-complete'))!;
    expect(off.segment).toBe(2);
    expect(off.entries.find((e) => e.entry.combatant === 'halvaine')?.outcome).toBe('goes-off');
    expect(r1.states.halvaine.expended).toEqual(['Web']);
  });

  it('a spear set against a charge strikes first in the surprise segments in which the charge comes ("interrupt")', () => {
    // The fighter is not surprised, the orc for 1 segment, a goblin (doing nothing) for 3: three surprise segments.
    const gob: Combatant = { id: 'gob', name: 'Goblin', side: 'goblins', hp: 2 };
    const e3 = encounter([fighter, orc, gob], [party, orcs, { id: 'goblins', name: 'Goblins' }]);
    const long: SurpriseResult = { rolls: { orcs: 1, goblins: 3 }, surprised: { fighter: 0, orc: 1, gob: 3 }, unit: 'segments' };
    const sch = d6.planSurprise(e3, long, {
      fighter: { combatant: 'fighter', action: 'set-vs-charge' },
      orc: { combatant: 'orc', action: 'charge', target: 'fighter' },
    }, opts)!;
    // Segment 1: the orc is still surprised, the fighter's set weapon is an ordinary action; from 2 it strikes before the charge.
    expect(sch.steps.map((st) => [st.segment, st.entries.map((e) => `${e.combatant}:${e.reason}`)])).toEqual([
      [1, [`fighter:${REASON.surprise}`]],
      [2, [`fighter:${REASON.interrupt}`]],
      [2, [`orc:${REASON.surprise}`]],
      [3, [`fighter:${REASON.interrupt}`]],
      [3, [`orc:${REASON.surprise}`]],
    ]);
  });

  it('surprised combatants do not act in their surprise segments (end to end: the surprise round log)', () => {
    const enc = encounter([fighter, orc]);
    const dice = new ScriptedDice([
      { purpose: 'surprise', side: 'party', result: 2 },
      { purpose: 'surprise', side: 'orcs', result: 6 },
    ]);
    const log = playCombat(d6, enc, opts, dice, {
      rounds: 0,
      declarations: () => ({ fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }),
      damage: [
        { round: 0, by: 'orc', target: 'fighter', amount: 3, routine: 1 },
        { round: 0, by: 'orc', target: 'fighter', amount: 3, routine: 2 },
      ],
    });
    expect(actorsByStep(log.surpriseRound!)).toEqual([['orc'], ['orc']]);
    expect(log.states.fighter.hp).toBe(4);
  });
});

/* =========================================== 2. Declare Spells and General Actions */

describe('segment-d6 · 2. Declare Spells and General Actions (validation)', () => {
  it('accepts the general actions the text names: attacking, using a bow, casting, charging, fleeing, parley, holding', () => {
    for (const action of ['melee', 'missile', 'charge', 'flee', 'parley', 'wait', 'set-vs-charge', 'other', 'none'] as ActionKind[]) {
      expect(d6.validateDeclaration({ combatant: 'fighter', action }, fighter, opts)).toBeNull();
    }
    expect(d6.validateDeclaration(spell('halvaine', 'Sleep', 1), halvaine, opts)).toBeNull();
  });

  it('"spell casters must state what spells (if any) they will be casting": a spell needs a name', () => {
    expect(d6.validateDeclaration({ combatant: 'halvaine', action: 'spell', castingTime: 2 }, halvaine, opts)).toEqual({
      key: 'SegmentD6SpellNotNamed',
      data: { name: 'Halvaine the Arcane' },
    });
  });

  it('shared checks: wrong combatant, an action of another procedure, a bad casting time, a spell not memorized', () => {
    expect(d6.validateDeclaration(melee('orc'), fighter, opts)?.key).toBe('DeclarationWrongCombatant');
    expect(d6.validateDeclaration({ combatant: 'fighter', action: 'full-defense' }, fighter, opts)).toEqual({
      key: 'ActionNotInProcedure',
      data: { action: 'full-defense' },
    });
    expect(d6.validateDeclaration({ combatant: 'fighter', action: 'delay' }, fighter, opts)?.key).toBe('ActionNotInProcedure');
    expect(d6.validateDeclaration({ ...spell('halvaine', 'Sleep', 0) }, halvaine, opts)?.key).toBe('CastingTimeInvalid');
    expect(d6.validateDeclaration({ combatant: 'halvaine', action: 'spell', spell: 'Sleep' }, halvaine, opts)?.key).toBe('CastingTimeInvalid');
    expect(d6.validateDeclaration(spell('halvaine', 'Fireball', 3), halvaine, opts)?.key).toBe('SpellNotMemorized');
  });

  it('attack routines must be a whole number from 1 to the cap', () => {
    for (const routines of [0, 1.5, MAX_ROUTINES + 1]) {
      expect(d6.validateDeclaration(melee('fighter', 'orc', { routines }), fighter, opts)).toEqual({
        key: 'SegmentD6RoutinesInvalid',
        data: { name: 'Fighter', routines: String(routines), max: MAX_ROUTINES },
      });
    }
    expect(d6.validateDeclaration(melee('fighter', 'orc'), { ...fighter, routines: -1 }, opts)?.key).toBe('SegmentD6RoutinesInvalid');
    expect(d6.validateDeclaration(melee('fighter', 'orc', { routines: 2 }), fighter, opts)).toBeNull();
    expect(d6.validateDeclaration(melee('fighter', 'orc', { routines: -2 }), fighter, opts)?.key).toBe('NumberInvalid');
  });

  it('a missile bonus that is not a whole number, and attacking oneself, are refused', () => {
    expect(d6.validateDeclaration({ combatant: 'fighter', action: 'missile' }, { ...fighter, missileBonus: 1.5 }, opts)).toEqual({
      key: 'NumberInvalid',
      data: { name: 'Fighter', field: 'missileBonus' },
    });
    expect(d6.validateDeclaration(melee('fighter', 'fighter'), fighter, opts)?.key).toBe('SegmentD6TargetSelf');
  });

  it('playCombat turns a bad declaration into a RulesError carrying the problem, not a crash', () => {
    const enc = encounter([halvaine, orc]);
    expect(() =>
      playCombat(d6, enc, opts, new ScriptedDice(noSurpriseDice(['party', 'orcs'])), {
        rounds: 1,
        declarations: () => ({ halvaine: { combatant: 'halvaine', action: 'spell', castingTime: 2 } }),
        damage: [],
      }),
    ).toThrow(/SegmentD6SpellNotNamed/);
  });

  it('options: unknown or ill-typed values are problems, defaults are the README rulings', () => {
    expect(d6.defaults).toEqual({ missileInitiative: true, tieRule: 'simultaneous', deathRule: 'zero', bleedPerRound: 0, fullyCastInSurprise: true, rangeModifiers: true, moraleMethod: '2d6' });
    const { problems } = resolveOptions(d6, { tieRule: 'coin', missileInitiative: 1 as unknown as boolean, speed: 3 });
    expect(problems.map((p) => p.key).sort()).toEqual(['BadOption', 'BadOption', 'UnknownOption']);
  });
});

/* ======================================================= 3. Determine Initiative */

describe('segment-d6 · 3. Determine Initiative', () => {
  it('"If the party rolls a 6 ... and the monsters roll a 1 ... the party will be acting in segment 1, and the monsters ... the sixth segment"', () => {
    const enc = encounter([fighter, orc]);
    const dice = new ScriptedDice([init('party', 6), init('orcs', 1)]);
    const ini = d6.rollInitiative(enc, input(enc, {}), dice, opts);
    expect(ini.sides).toEqual({ party: 6, orcs: 1 });
    expect(ini.winner).toBe('party');
    expect(dice.log[0].request).toEqual({ purpose: 'initiative', count: 1, faces: 6, side: 'party', round: 1 });
    const sch = d6.planRound(enc, input(enc, { fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }), ini, opts);
    expect(segmentsOf(sch, 'fighter')).toEqual([1]);
    expect(segmentsOf(sch, 'orc')).toEqual([6]);
    expect(sch.steps.every((s) => s.phase === 'd6-segment')).toBe(true);
  });

  it('"Initiative rolls may result in a tie ... both sides are considered to be acting simultaneously": one step, no winner', () => {
    const enc = encounter([fighter, orc]);
    const ini = d6.rollInitiative(enc, input(enc, {}), new ScriptedDice([init('party', 3), init('orcs', 3)]), opts);
    expect(ini.winner).toBeNull();
    const sch = d6.planRound(enc, input(enc, { fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }), ini, opts);
    expect(sch.steps).toHaveLength(1);
    expect(sch.steps[0].segment).toBe(3);
    expect(sch.steps[0].entries.map((e) => e.combatant).sort()).toEqual(['fighter', 'orc']);
  });

  it('"It is possible for two combatants to kill each other during a simultaneous initiative round!"', () => {
    const enc = encounter([fighter, orc]);
    const log = playCombat(d6, enc, opts, new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 4), init('orcs', 4)]), {
      rounds: 1,
      declarations: () => ({ fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }),
      damage: [
        { round: 1, by: 'fighter', target: 'orc', amount: 9 },
        { round: 1, by: 'orc', target: 'fighter', amount: 12 },
      ],
    });
    expect(log.states.fighter.condition).toBe('dead');
    expect(log.states.orc.condition).toBe('dead');
    expect(log.rounds[0].end?.events).toEqual([
      { kind: 'death', combatant: 'fighter' },
      { kind: 'death', combatant: 'orc' },
    ]);
  });

  it('"a goblin killed in the first segment of the round will be dead (and thus unable to attack) by the time the fifth segment"', () => {
    const goblin: Combatant = { id: 'goblin', name: 'Goblin', side: 'orcs', hp: 3 };
    const enc = encounter([fighter, goblin]);
    const log = playCombat(d6, enc, opts, new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 5), init('orcs', 1)]), {
      rounds: 1,
      declarations: () => ({ fighter: melee('fighter', 'goblin'), goblin: melee('goblin', 'fighter') }),
      damage: [
        { round: 1, by: 'fighter', target: 'goblin', amount: 4 },
        { round: 1, by: 'goblin', target: 'fighter', amount: 6 },
      ],
    });
    const r = log.rounds[0];
    expect(r.steps.map((s) => s.segment)).toEqual([1, 5]);
    expect(r.steps[1].entries[0]).toMatchObject({ entry: { combatant: 'goblin' }, outcome: 'cannot-act' });
    expect(r.unapplied).toHaveLength(1);
    expect(log.states.fighter.hp).toBe(10);
  });

  it('more than two sides (README ruling): "a side acts in the segment shown by the highest die rolled by any opposing side"', () => {
    const gob: Combatant = { id: 'gob', name: 'Goblin', side: 'goblins', hp: 3 };
    const enc = encounter([fighter, orc, gob], [party, orcs, { id: 'goblins', name: 'Goblins' }]);
    const decls = { fighter: melee('fighter'), orc: melee('orc'), gob: melee('gob') };
    const sch = plan(enc, decls, { party: 2, orcs: 5, goblins: 3 });
    expect(segmentsOf(sch, 'fighter')).toEqual([5]);
    expect(segmentsOf(sch, 'orc')).toEqual([3]);
    expect(segmentsOf(sch, 'gob')).toEqual([5]);
  });

  it('a side with no member able to act does not roll initiative', () => {
    const enc = encounter([fighter, orc, { id: 'gob', name: 'Goblin', side: 'goblins', hp: 3 }], [party, orcs, { id: 'goblins', name: 'Goblins' }]);
    const states = { ...initialStates(enc), gob: { hp: 0, condition: 'dead', expended: [] } as CombatantState };
    const dice = new ScriptedDice([init('party', 2), init('orcs', 4)]);
    const ini = d6.rollInitiative(enc, input(enc, {}, { states }), dice, opts);
    expect(ini.sides).toEqual({ party: 2, orcs: 4 });
  });

  it('tieRule "reroll" ("The GM may handle this situation in any way he or she chooses"): tied sides roll again', () => {
    const enc = encounter([fighter, orc]);
    const dice = new ScriptedDice([init('party', 3), init('orcs', 3), init('party', 2), init('orcs', 5)]);
    const ini = d6.rollInitiative(enc, input(enc, {}), dice, withOpts({ tieRule: 'reroll' }));
    expect(ini.sides).toEqual({ party: 2, orcs: 5 });
    expect(ini.winner).toBe('orcs');
    expect(dice.unused()).toEqual([]);
  });

  it('"if a character has a missile weapon in hand, he or she applies his or her missile attack bonus as a bonus to his or her initiative"', () => {
    const archer: Combatant = { id: 'archer', name: 'Archer', side: 'party', hp: 6, missileBonus: 2, surpriseAdjustment: 3 };
    const enc = encounter([archer, fighter, orc]);
    const sch = plan(enc, { archer: { combatant: 'archer', action: 'missile', target: 'orc' }, fighter: melee('fighter') }, { party: 2, orcs: 4 });
    expect(segmentsOf(sch, 'archer')).toEqual([2]);
    expect(segmentsOf(sch, 'fighter')).toEqual([4]);
    expect(sch.steps[0].entries[0].reason).toBe(REASON.missileBonus);
    // "The dexterity bonus for surprise is not added to an individual's initiative for melee attacks"
    const meleeSch = plan(enc, { archer: melee('archer', 'orc') }, { party: 2, orcs: 4 });
    expect(segmentsOf(meleeSch, 'archer')).toEqual([4]);
  });

  it('missile bonus (README ruling): never before segment 1; a penalty makes it later, never after 10; option off ignores it', () => {
    const sharp: Combatant = { id: 'sharp', name: 'Sharp', side: 'party', hp: 6, missileBonus: 5 };
    const slow: Combatant = { id: 'slow', name: 'Slow', side: 'party', hp: 6, missileBonus: -3 };
    const awful: Combatant = { id: 'awful', name: 'Awful', side: 'party', hp: 6, missileBonus: -9 };
    const enc = encounter([sharp, slow, awful, orc]);
    const decls = {
      sharp: { combatant: 'sharp', action: 'missile' as const },
      slow: { combatant: 'slow', action: 'missile' as const },
      awful: { combatant: 'awful', action: 'missile' as const },
    };
    const sch = plan(enc, decls, { party: 1, orcs: 3 });
    expect(segmentsOf(sch, 'sharp')).toEqual([1]);
    expect(segmentsOf(sch, 'slow')).toEqual([6]);
    expect(segmentsOf(sch, 'awful')).toEqual([10]);
    const off = plan(enc, decls, { party: 1, orcs: 3 }, withOpts({ missileInitiative: false }));
    expect([...segmentsOf(off, 'sharp'), ...segmentsOf(off, 'slow'), ...segmentsOf(off, 'awful')]).toEqual([3, 3, 3]);
  });

  describe('"A creature or character with multiple attack routines cannot use the second attack routine until after the other side\'s initiative segment has been resolved"', () => {
    it('the second routine waits for the other side\'s segment and comes after that side\'s actions', () => {
      const hero: Combatant = { ...fighter, routines: 2 };
      const enc = encounter([hero, orc]);
      const sch = plan(enc, { fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }, { party: 5, orcs: 2 });
      expect(segmentsOf(sch, 'fighter', 'action')).toEqual([2]);
      expect(segmentsOf(sch, 'fighter', 'routine')).toEqual([5]);
      expect(stepIndexOf(sch, 'fighter', 'routine')).toBeGreaterThan(stepIndexOf(sch, 'orc', 'action'));
      const routine = sch.steps[stepIndexOf(sch, 'fighter', 'routine')].entries[0];
      expect(routine).toMatchObject({ routine: 2, reason: REASON.laterRoutine });
    });

    it('if the fighter is killed in the other side\'s segment, the second routine never happens', () => {
      const hero: Combatant = { ...fighter, routines: 2, hp: 4 };
      const enc = encounter([hero, orc]);
      const log = playCombat(d6, enc, opts, new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 5), init('orcs', 2)]), {
        rounds: 1,
        declarations: () => ({ fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }),
        damage: [
          { round: 1, by: 'fighter', target: 'orc', amount: 2, routine: 1 },
          { round: 1, by: 'orc', target: 'fighter', amount: 4 },
          { round: 1, by: 'fighter', target: 'orc', amount: 2, routine: 2 },
        ],
      });
      const r = log.rounds[0];
      expect(r.steps.map((s) => s.entries.map((e) => `${e.entry.combatant}:${e.outcome}`))).toEqual([
        ['fighter:acts'],
        ['orc:acts'],
        ['fighter:cannot-act'],
      ]);
      expect(log.states.orc.hp).toBe(3);
    });

    it('when the other side\'s segment has already passed, the second routine follows right after the first', () => {
      const hero: Combatant = { ...fighter, routines: 3 };
      const enc = encounter([hero, orc]);
      const sch = plan(enc, { fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') }, { party: 2, orcs: 5 });
      expect(segmentsOf(sch, 'orc')).toEqual([2]);
      expect(segmentsOf(sch, 'fighter', 'action')).toEqual([5]);
      expect(segmentsOf(sch, 'fighter', 'routine')).toEqual([5, 5]);
      const i1 = stepIndexOf(sch, 'fighter', 'action');
      expect(stepIndexOf(sch, 'fighter', 'routine', 0)).toBe(i1 + 1);
      expect(stepIndexOf(sch, 'fighter', 'routine', 1)).toBe(i1 + 2);
      expect(sch.steps[i1 + 1].entries[0].reason).toBe(REASON.routineFollows);
    });

    it('"all of these attacks are considered to be part of one attack routine": a monster\'s several attacks are one entry', () => {
      const enc = encounter([fighter, { ...orc, routines: 1 }]);
      const sch = plan(enc, { orc: melee('orc', 'fighter', { note: 'claw/claw/bite' }) }, { party: 4, orcs: 4 });
      expect(segmentsOf(sch, 'orc')).toEqual([4]);
    });
  });

  describe('"Note about spells" and the Halvaine example', () => {
    const enc = encounter([halvaine, fighter, orc]);
    const decls = { halvaine: spell('halvaine', 'Sleep', 2, 'orc'), fighter: melee('fighter', 'orc'), orc: melee('orc', 'halvaine') };
    const dice = () => new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 5), init('orcs', 4)]);

    it('"Halvaine thus begins casting in the fourth segment ... The orcs attack in the fifth ... his spell will go off in the sixth"', () => {
      const sch = plan(enc, decls, { party: 5, orcs: 4 });
      expect(segmentsOf(sch, 'halvaine', 'cast-begin')).toEqual([4]);
      expect(segmentsOf(sch, 'orc')).toEqual([5]);
      expect(segmentsOf(sch, 'halvaine', 'cast-complete')).toEqual([6]);
      expect(sch.castings).toEqual([
        expect.objectContaining({ caster: 'halvaine', spell: 'Sleep', castingTime: 2, beganRound: 1, remaining: 0, expends: true, device: false }),
      ]);
    });

    it('"provided, of course, that the orcish attack in the fifth segment does not interrupt and thus spoil his casting"', () => {
      const log = playCombat(d6, enc, opts, dice(), {
        rounds: 1,
        declarations: () => decls,
        damage: [{ round: 1, by: 'orc', target: 'halvaine', amount: 1 }],
      });
      const r = log.rounds[0];
      const five = r.steps.find((s) => s.segment === 5)!;
      expect(five.interruptions).toEqual([
        expect.objectContaining({ caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true }),
      ]);
      expect(r.steps.find((s) => s.segment === 6)!.entries[0].outcome).toBe('interrupted');
      // The spell is lost.
      expect(log.states.halvaine.expended).toEqual(['Sleep']);
    });

    it('without the orcish hit the spell goes off in the sixth segment', () => {
      const log = playCombat(d6, enc, opts, dice(), { rounds: 1, declarations: () => decls, damage: [] });
      const six = log.rounds[0].steps.find((s) => s.segment === 6)!;
      expect(six.entries[0]).toMatchObject({ entry: { combatant: 'halvaine', kind: 'cast-complete' }, outcome: 'goes-off' });
    });

    it('README casting ruling: damage in the segment the casting begins (S) already interrupts it — here a tied initiative', () => {
      const log = playCombat(d6, enc, opts, new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 4), init('orcs', 4)]), {
        rounds: 1,
        declarations: () => decls,
        damage: [{ round: 1, by: 'orc', target: 'halvaine', amount: 1 }],
      });
      const four = log.rounds[0].steps.find((s) => s.segment === 4)!;
      expect(four.entries.map((e) => e.outcome)).toEqual(['begins', 'acts', 'acts']);
      expect(four.interruptions).toEqual([expect.objectContaining({ caster: 'halvaine', outcome: 'interrupted' })]);
    });

    it('README casting ruling: damage in the segment it goes off is simultaneous and does not stop it', () => {
      const log = playCombat(d6, enc, opts, dice(), {
        rounds: 1,
        declarations: () => decls,
        damage: [{ round: 1, segment: 6, target: 'halvaine', amount: 2 }],
      });
      const six = log.rounds[0].steps.find((s) => s.segment === 6)!;
      expect(six.entries[0].outcome).toBe('goes-off');
      expect(six.interruptions).toEqual([]);
      expect(log.states.halvaine.hp).toBe(4);
    });

    it('"does not actually begin casting the spell until his or her initiative segment": damage earlier in the round does nothing to it', () => {
      // The orcs roll 4 and the party 2: the orcs act in 2, Halvaine begins in 4.
      const log = playCombat(d6, enc, opts, new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 2), init('orcs', 4)]), {
        rounds: 1,
        declarations: () => decls,
        damage: [{ round: 1, by: 'orc', target: 'halvaine', amount: 2 }],
      });
      const r = log.rounds[0];
      expect(r.steps.flatMap((s) => s.interruptions)).toEqual([]);
      expect(r.steps.find((s) => s.segment === 6)!.entries[0].outcome).toBe('goes-off');
    });

    it('"the caster may elect not to cast the spell": a cancelled casting does not go off and is not expended', () => {
      const log = playCombat(d6, enc, opts, dice(), {
        rounds: 1,
        declarations: () => decls,
        damage: [],
        cancelled: [{ round: 1, casting: 'halvaine@1' }],
      });
      expect(log.rounds[0].steps.find((s) => s.segment === 6)!.entries[0].outcome).toBe('cancelled');
      expect(log.states.halvaine.expended).toEqual([]);
    });
  });

  describe('casting time past the end of the round (README: "1 round" is 10 segments and carries over)', () => {
    const enc = encounter([halvaine, orc]);
    const script = (damage: DamageEvent[], decl2: Declaration | undefined = undefined) => ({
      rounds: 2,
      declarations: (round: number) => {
        const d: Record<string, Declaration> = { orc: melee('orc', 'halvaine') };
        if (round === 1) d.halvaine = spell('halvaine', 'Web', 10);
        else if (decl2) d.halvaine = decl2;
        return d;
      },
      damage,
    });
    const dice = () =>
      new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 3, 1), init('orcs', 4, 1), init('party', 2, 2), init('orcs', 6, 2)]);

    it('begun in 4 with a casting time of 10, it goes off in segment 4 of the next round', () => {
      const log = playCombat(d6, enc, opts, dice(), script([]));
      expect(log.rounds[0].carryOut).toEqual([expect.objectContaining({ id: 'halvaine@1', remaining: 4 })]);
      const off = log.rounds[1].steps.find((s) => s.entries.some((e) => e.entry.kind === 'cast-complete'))!;
      expect(off.segment).toBe(4);
      expect(off.entries.find((e) => e.entry.combatant === 'halvaine')!.outcome).toBe('goes-off');
      expect(log.states.halvaine.expended).toEqual(['Web']);
    });

    it('a carried casting is vulnerable from the start of the next round until it goes off', () => {
      // Round 2: the orcs act in segment 2 (party die) and hit Halvaine before the spell goes off in 4.
      const log = playCombat(d6, enc, opts, dice(), script([{ round: 2, by: 'orc', target: 'halvaine', amount: 1 }]));
      expect(log.rounds[1].steps.flatMap((s) => s.interruptions)).toEqual([
        expect.objectContaining({ casting: 'halvaine@1', outcome: 'interrupted', expended: true }),
      ]);
    });

    it('a caster still casting acts again only after the carried spell went off', () => {
      // Round 2 Halvaine's side acts in 6 (orcs rolled 6): after the spell goes off in 4, so its melee is planned.
      const log = playCombat(d6, enc, opts, dice(), script([], melee('halvaine', 'orc')));
      expect(segmentsOf(log.rounds[1].schedule, 'halvaine', 'action')).toEqual([6]);
      // With a side segment of 3 (before the spell goes off in 4) it gets no action.
      const busy = playCombat(
        d6,
        enc,
        opts,
        new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 3, 1), init('orcs', 4, 1), init('party', 2, 2), init('orcs', 3, 2)]),
        script([], melee('halvaine', 'orc')),
      );
      expect(segmentsOf(busy.rounds[1].schedule, 'halvaine', 'action')).toEqual([]);
    });

    it('a casting longer than what is left of the next round carries again with 10 segments less', () => {
      const carried: Casting = {
        id: 'halvaine@1', caster: 'halvaine', spell: 'Web', device: false, castingTime: 20, beganRound: 1,
        beginStep: -1, completeStep: null, lossFrom: 0, preventFrom: 0, expends: true, remaining: 14,
      };
      const sch = plan(enc, { halvaine: melee('halvaine', 'orc') }, { party: 3, orcs: 4 }, opts, { round: 2, carryIn: [carried] });
      expect(sch.carryOut).toEqual([expect.objectContaining({ id: 'halvaine@1', remaining: 4, lossFrom: 0 })]);
      expect(segmentsOf(sch, 'halvaine')).toEqual([]);
    });
  });

  it('a device goes off after its time but is never interrupted (procedure.ts: devices are never interrupted)', () => {
    const enc = encounter([halvaine, orc]);
    const log = playCombat(d6, enc, opts, new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 5), init('orcs', 4)]), {
      rounds: 1,
      declarations: () => ({ halvaine: { combatant: 'halvaine', action: 'device', spell: 'Wand', castingTime: 3 }, orc: melee('orc', 'halvaine') }),
      damage: [{ round: 1, by: 'orc', target: 'halvaine', amount: 1 }],
    });
    const r = log.rounds[0];
    expect(r.steps.flatMap((s) => s.interruptions)).toEqual([]);
    expect(r.steps.find((s) => s.segment === 7)!.entries[0].outcome).toBe('goes-off');
    expect(log.states.halvaine.expended).toEqual([]);
  });

  it('"attacking charging opponents with spears set against a charge" interrupts: the spear strikes in the charger\'s segment, first', () => {
    const enc = encounter([fighter, orc, orc2]);
    const decls = {
      fighter: { combatant: 'fighter', action: 'set-vs-charge' as const },
      orc: { combatant: 'orc', action: 'charge' as const, target: 'fighter' },
      orc2: melee('orc2', 'fighter'),
    };
    const sch = plan(enc, decls, { party: 5, orcs: 2 });
    expect(segmentsOf(sch, 'fighter')).toEqual([5]);
    expect(stepIndexOf(sch, 'fighter', 'action')).toBeLessThan(stepIndexOf(sch, 'orc', 'action'));
    const set = sch.steps[stepIndexOf(sch, 'fighter', 'action')].entries[0];
    expect(set).toMatchObject({ target: 'orc', reason: REASON.interrupt });
    // The charger killed by the set spear never lands its charge.
    const log = playSchedule(d6, enc, sch, initialStates(enc), [
      { round: 1, by: 'fighter', target: 'orc', amount: 8 },
      { round: 1, by: 'orc', target: 'fighter', amount: 5 },
    ], opts);
    expect(log.states.orc.condition).toBe('dead');
    expect(log.states.fighter.hp).toBe(10);
  });

  it('a weapon set against a charge with no charge coming acts in its side\'s segment like any action', () => {
    const enc = encounter([fighter, orc]);
    const sch = plan(enc, { fighter: { combatant: 'fighter', action: 'set-vs-charge', target: 'orc' }, orc: melee('orc') }, { party: 5, orcs: 2 });
    expect(segmentsOf(sch, 'fighter')).toEqual([2]);
  });

  it('entries of a step keep encounter order when weapons set against a charge wait for charges declared after them', () => {
    const pikeman: Combatant = { id: 'pikeman', name: 'Pikeman', side: 'party', hp: 8 };
    const spearman: Combatant = { id: 'spearman', name: 'Spearman', side: 'party', hp: 8 };
    const enc = encounter([fighter, pikeman, spearman, halvaine, orc, orc2]);
    const decls = {
      fighter: melee('fighter', 'orc2'),
      pikeman: { combatant: 'pikeman', action: 'set-vs-charge' as const },
      spearman: { combatant: 'spearman', action: 'set-vs-charge' as const },
      halvaine: melee('halvaine', 'orc2'),
      orc: { combatant: 'orc', action: 'charge' as const, target: 'pikeman' },
      orc2: melee('orc2', 'fighter'),
    };
    const sch = plan(enc, decls, { party: 5, orcs: 2 });
    expect(sch.steps.map((s) => [s.segment, s.entries.map((e) => e.combatant)])).toEqual([
      [2, ['fighter', 'spearman', 'halvaine']],
      [5, ['pikeman']],
      [5, ['orc', 'orc2']],
    ]);
    expect(sch.steps[1].entries[0]).toMatchObject({ target: 'orc', reason: REASON.interrupt });
    expect(sch.steps[0].entries[1]).toMatchObject({ combatant: 'spearman', reason: REASON.sideSegment });
  });

  it('"some combatants might \'hold\' (choose to delay) their actions": the hold starts in the side\'s segment, marked for the GM', () => {
    const enc = encounter([fighter, orc]);
    const sch = plan(enc, { fighter: { combatant: 'fighter', action: 'wait' } }, { party: 5, orcs: 2 });
    expect(sch.steps).toEqual([
      { phase: 'd6-segment', key: expect.any(Number), segment: 2, entries: [{ combatant: 'fighter', kind: 'action', action: 'wait', reason: REASON.holds }] },
    ]);
  });

  it('"none" and no declaration give no entry; dead combatants are not planned', () => {
    const enc = encounter([fighter, orc, orc2]);
    const states = { ...initialStates(enc), orc2: { hp: -1, condition: 'dead', expended: [] } as CombatantState };
    const sch = plan(enc, { fighter: { combatant: 'fighter', action: 'none' }, orc2: melee('orc2') }, { party: 5, orcs: 2 }, opts, { states });
    expect(sch.steps).toEqual([]);
  });
});

/* ================================================== damage, death, end of round */

describe('segment-d6 · damage and death (the seed is silent: option deathRule)', () => {
  const s0: CombatantState = { hp: 5, condition: 'ok', expended: [] };

  it('default: dead at 0 hp', () => {
    const r = d6.applyDamage(orc, s0, 5, opts);
    expect(r.state).toMatchObject({ hp: 0, condition: 'dead' });
    expect(r.wounds).toBe(5);
    expect(d6.canAct(r.state)).toBe(false);
    expect(d6.applyDamage(orc, s0, 4, opts).state.condition).toBe('ok');
  });

  it('"minus-ten": unconscious (cannot act) from 0 to -9, dead at -10', () => {
    const o = withOpts({ deathRule: 'minus-ten' });
    const down = d6.applyDamage(orc, s0, 5, o).state;
    expect(down).toMatchObject({ hp: 0, condition: 'incapacitated' });
    expect(d6.canAct(down)).toBe(false);
    expect(d6.applyDamage(orc, down, 9, o).state).toMatchObject({ hp: -9, condition: 'incapacitated' });
    expect(d6.applyDamage(orc, down, 10, o).state).toMatchObject({ hp: -10, condition: 'dead' });
    // Healing an unconscious combatant above 0 wakes it; the dead stay dead.
    expect(d6.applyDamage(orc, down, -3, o).state).toMatchObject({ hp: 3, condition: 'ok' });
    expect(d6.applyDamage(orc, { hp: -10, condition: 'dead', expended: [] }, -20, o).state.condition).toBe('dead');
  });

  it('a nonsense damage amount does nothing instead of crashing', () => {
    expect(d6.applyDamage(orc, s0, Number.NaN, opts).state).toEqual(s0);
  });

  it('end of round: nothing beyond reporting deaths; states pass through unchanged', () => {
    const enc = encounter([fighter, orc]);
    const before = initialStates(enc);
    const after = { ...before, orc: { hp: -2, condition: 'dead', expended: [] } as CombatantState };
    const res = d6.endOfRound(enc, { round: 1, before, after, hits: [{ target: 'orc', wounds: 7 }] }, new ScriptedDice([]), opts);
    expect(res.events).toEqual([{ kind: 'death', combatant: 'orc' }]);
    expect(res.states).toEqual(after);
    expect(d6.rollCombatInitiative(enc, enc.combatants, new ScriptedDice([]), opts)).toEqual({});
    expect(d6.openingMorale).toBeUndefined();
  });

  it('end of round: the states returned are copies; deaths are reported in encounter order, none when nobody died', () => {
    const enc = encounter([fighter, orc, orc2]);
    const before = initialStates(enc);
    const dead = (s: CombatantState): CombatantState => ({ ...s, hp: -1, condition: 'dead' });
    const after = { orc2: dead(before.orc2), fighter: before.fighter, orc: dead(before.orc) };
    const res = d6.endOfRound(enc, { round: 1, before, after, hits: [] }, new ScriptedDice([]), opts);
    expect(res.events).toEqual([
      { kind: 'death', combatant: 'orc' },
      { kind: 'death', combatant: 'orc2' },
    ]);
    expect(res.states).toEqual(after);
    expect(res.states.fighter).not.toBe(after.fighter);
    expect(res.states.fighter.expended).not.toBe(after.fighter.expended);
    const quiet = d6.endOfRound(enc, { round: 2, before: after, after, hits: [] }, new ScriptedDice([]), opts);
    expect(quiet.events).toEqual([]);
    expect(quiet.states).toEqual(after);
  });
});

/* ============================================================== late joiners */

describe('segment-d6 · late joiners', () => {
  const enc = () => encounter([fighter, orc]);
  const dice = () => new ScriptedDice([...noSurpriseDice(['party', 'orcs']), init('party', 5), init('orcs', 2)]);
  const decls = () => ({ fighter: melee('fighter', 'orc'), orc: melee('orc', 'fighter') });
  const ally: Combatant = { id: 'ally', name: 'Ally', side: 'party', hp: 8 };

  it('a newcomer whose side has not yet acted acts with its side this round', () => {
    // Steps: segment 2 (party), segment 5 (orcs). Joining before step 0.
    const log = playCombat(d6, enc(), opts, dice(), {
      rounds: 1,
      declarations: decls,
      damage: [{ round: 1, by: 'ally', target: 'orc', amount: 2 }],
      joins: [{ round: 1, step: 0, combatant: ally, declaration: melee('ally', 'orc') }],
    });
    expect(segmentsOf(log.rounds[0].schedule, 'ally')).toEqual([2]);
    expect(log.states.orc.hp).toBe(3);
  });

  it('a newcomer whose side\'s segment has passed waits for the next round', () => {
    const log = playCombat(d6, enc(), opts, dice(), {
      rounds: 1,
      declarations: decls,
      damage: [],
      joins: [{ round: 1, step: 1, combatant: ally, declaration: melee('ally', 'orc') }],
    });
    expect(segmentsOf(log.rounds[0].schedule, 'ally')).toEqual([]);
  });

  it('joining keeps every casting attached to its steps: a new step before the spell goes off shifts the indices', () => {
    const e = encounter([halvaine, orc]);
    // Orcs roll 2, party 5: Halvaine begins in 2 (goes off in 4), the orc acts in 5.
    const base = plan(e, { halvaine: spell('halvaine', 'Sleep', 2), orc: melee('orc', 'halvaine') }, { party: 5, orcs: 2 });
    expect(base.steps.map((s) => s.segment)).toEqual([2, 4, 5]);
    // An orc archer with +2 to hit with missiles joins after segment 2 has been played: it shoots in 5 - 2 = 3.
    const archer: Combatant = { id: 'archer', name: 'Archer', side: 'orcs', hp: 4, missileBonus: 2 };
    const stored = JSON.parse(JSON.stringify(base)) as Schedule; // schedules are plain JSON on the Combat
    const joined = d6.lateJoin(e, archer, { round: 1, schedule: stored, currentStep: 0, declaration: { combatant: 'archer', action: 'missile', target: 'halvaine' }, baseInitiative: {} }, new ScriptedDice([]), opts).schedule;
    expect(joined.steps.map((s) => s.segment)).toEqual([2, 3, 4, 5]);
    const c = joined.castings[0];
    expect(joined.steps[c.beginStep].segment).toBe(2);
    expect(joined.steps[c.completeStep!].segment).toBe(4);
    expect(joined.steps[c.lossFrom].segment).toBe(2);
    // The archer's arrow in segment 3 spoils the casting.
    const log = playSchedule(d6, { ...e, combatants: [...e.combatants, archer] }, joined, initialStates({ ...e, combatants: [...e.combatants, archer] }), [
      { round: 1, by: 'archer', target: 'halvaine', amount: 1 },
    ], opts);
    expect(log.steps[1].interruptions).toEqual([expect.objectContaining({ caster: 'halvaine', outcome: 'interrupted' })]);
    // Joining when its segment has passed (a +4 archer would shoot in 1): nothing changes this round.
    const early: Combatant = { ...archer, id: 'early', missileBonus: 4 };
    const same = d6.lateJoin(e, early, { round: 1, schedule: base, currentStep: 0, declaration: { combatant: 'early', action: 'missile' }, baseInitiative: {} }, new ScriptedDice([]), opts);
    expect(same.schedule).toBe(base);
  });
});

/* =============================================================== localization */

describe('segment-d6 · localization', () => {
  it('every phase, reason, option and error key the procedure uses is in lang/en.json', () => {
    const lang = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;
    const needed = [
      ...d6.phases.map((p) => `TENSEG.Phase.${p}`),
      ...Object.values(REASON).map((r) => `TENSEG.Reason.${r}`),
      ...d6.optionSpecs.flatMap((o) => [`TENSEG.Option.segment-d6.${o.key}.Name`, `TENSEG.Option.segment-d6.${o.key}.Hint`]),
      ...d6.optionSpecs.flatMap((o) => (o.choices ?? []).map((c) => `TENSEG.Option.segment-d6.${o.key}.Choice.${c}`)),
      'TENSEG.Error.SegmentD6SpellNotNamed',
      'TENSEG.Error.SegmentD6RoutinesInvalid',
      'TENSEG.Error.SegmentD6TargetSelf',
    ];
    for (const key of needed) expect(lang[key], key).toBeTypeOf('string');
  });
});

/* ====================================================== property-based tests */

const PROPERTY_ACTIONS: ActionKind[] = ['melee', 'missile', 'spell', 'device', 'charge', 'flee', 'parley', 'wait', 'set-vs-charge', 'other', 'none'];

interface RandomFight {
  enc: Encounter;
  decls: Record<string, Declaration>;
  seed: number;
}

const fightArb: fc.Arbitrary<RandomFight> = fc
  .record({
    nSides: fc.integer({ min: 2, max: 4 }),
    members: fc.array(
      fc.record({
        side: fc.nat(3),
        hp: fc.integer({ min: 1, max: 12 }),
        routines: fc.integer({ min: 1, max: 3 }),
        missileBonus: fc.integer({ min: -4, max: 4 }),
        surpriseAdjustment: fc.integer({ min: -2, max: 2 }),
        surprisesOn: fc.integer({ min: 0, max: 3 }),
        action: fc.constantFrom(...PROPERTY_ACTIONS),
        castingTime: fc.integer({ min: 1, max: 14 }),
        target: fc.nat(),
      }),
      { minLength: 2, maxLength: 14 },
    ),
    seed: fc.integer(),
  })
  .map(({ nSides, members, seed }) => {
    const sides: Side[] = Array.from({ length: nSides }, (_, i) => ({ id: `s${i}`, name: `Side ${i}` }));
    const combatants: Combatant[] = members.map((m, i) => ({
      id: `c${i}`,
      name: `C${i}`,
      side: `s${m.side % nSides}`,
      hp: m.hp,
      routines: m.routines,
      missileBonus: m.missileBonus,
      surpriseAdjustment: m.surpriseAdjustment,
      surprisesOn: m.surprisesOn,
    }));
    const decls: Record<string, Declaration> = {};
    members.forEach((m, i) => {
      const t = m.target % members.length;
      const d: Declaration = { combatant: `c${i}`, action: m.action };
      if (t !== i) d.target = `c${t}`;
      if (m.action === 'spell' || m.action === 'device') {
        d.spell = `Spell ${i}`;
        d.castingTime = m.castingTime;
      }
      decls[`c${i}`] = d;
    });
    return { enc: { sides, combatants }, decls, seed };
  });

/** The segment a side acts in, straight from the rule: the highest die of any other side that rolled (1 if none). */
function ruleSegment(dice: Record<string, number>, side: string): number {
  let best = 0;
  for (const [s, v] of Object.entries(dice)) if (s !== side) best = Math.max(best, v);
  return best || 1;
}

/** How many entries a combatant's declaration allows in a round it starts in segment S. */
function allowedEntries(c: Combatant, d: Declaration, S: number): number {
  switch (d.action) {
    case 'none':
      return 0;
    case 'spell':
    case 'device':
      return S + (d.castingTime as number) <= 10 ? 2 : 1;
    case 'melee':
    case 'missile':
      return d.routines ?? c.routines ?? 1;
    default:
      return 1;
  }
}

function countEntries(schedule: Schedule): Map<string, number> {
  const n = new Map<string, number>();
  for (const s of schedule.steps) for (const e of s.entries) n.set(e.combatant, (n.get(e.combatant) ?? 0) + 1);
  return n;
}

describe('segment-d6 · properties over random encounters', () => {
  it('every declaration is legal for the generator (sanity of the properties below)', () => {
    fc.assert(
      fc.property(fightArb, ({ enc, decls }) => {
        for (const c of enc.combatants) expect(d6.validateDeclaration(decls[c.id], c, opts)).toBeNull();
      }),
      { numRuns: 50 },
    );
  });

  it('a round: each living combatant appears exactly as often as its declaration and routines allow, at the segments the rules give', () => {
    fc.assert(
      fc.property(fightArb, ({ enc, decls, seed }) => {
        const inp = input(enc, decls);
        const ini = d6.rollInitiative(enc, inp, new RandomDice(seed), opts);
        const sch = d6.planRound(enc, inp, ini, opts);
        const counts = countEntries(sch);
        for (const c of enc.combatants) {
          const d = decls[c.id];
          const S = ruleSegment(ini.sides, c.side);
          const own = d.action === 'missile' ? Math.min(10, Math.max(1, S - (c.missileBonus ?? 0))) : S;
          expect(counts.get(c.id) ?? 0).toBe(allowedEntries(c, d, own));
          const first = sch.steps.find((s) => s.entries.some((e) => e.combatant === c.id && e.kind !== 'routine' && e.kind !== 'cast-complete'));
          if (d.action !== 'none' && d.action !== 'set-vs-charge') expect(first?.segment).toBe(own);
          // Further routines: after every opposing side's segment (or right after the first).
          const opp = Math.max(own, ...Object.keys(ini.sides).filter((s) => s !== c.side).map((s) => ruleSegment(ini.sides, s)));
          for (const seg of segmentsOf(sch, c.id, 'routine')) expect(seg).toBe(opp);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('steps are in order: segments 1..10, non-decreasing; equal keys merged (one step per segment and sub-order)', () => {
    fc.assert(
      fc.property(fightArb, ({ enc, decls, seed }) => {
        const inp = input(enc, decls);
        const sch = d6.planRound(enc, inp, d6.rollInitiative(enc, inp, new RandomDice(seed), opts), opts);
        for (let i = 0; i < sch.steps.length; i++) {
          const seg = sch.steps[i].segment as number;
          expect(seg).toBeGreaterThanOrEqual(1);
          expect(seg).toBeLessThanOrEqual(10);
          if (i > 0) expect(seg).toBeGreaterThanOrEqual(sch.steps[i - 1].segment as number);
          expect(sch.steps[i].entries.length).toBeGreaterThan(0);
        }
        for (const c of sch.castings) {
          if (c.completeStep !== null) expect(c.completeStep).toBeGreaterThan(c.beginStep);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('determinism: the same dice give the same surprise, initiative and schedules', () => {
    fc.assert(
      fc.property(fightArb, ({ enc, decls, seed }) => {
        const once = () => {
          const dice = new RandomDice(seed);
          const s = d6.rollSurprise(enc, dice, opts);
          const inp = input(enc, decls);
          const ini = d6.rollInitiative(enc, inp, dice, opts);
          return { s, sur: d6.planSurprise(enc, s, decls, opts), ini, sch: d6.planRound(enc, inp, ini, opts) };
        };
        expect(once()).toEqual(once());
      }),
      { numRuns: 100 },
    );
  });

  it('surprise: nobody acts in a segment while surprised; each unsurprised declared combatant acts once per segment (spells and holds once)', () => {
    fc.assert(
      fc.property(fightArb, ({ enc, decls, seed }) => {
        const s = d6.rollSurprise(enc, new RandomDice(seed), opts);
        const sch = d6.planSurprise(enc, s, decls, opts);
        const M = Math.max(0, ...Object.values(s.surprised));
        if (!sch) return;
        for (const st of sch.steps) {
          const k = st.segment as number;
          expect(k).toBeGreaterThanOrEqual(1);
          expect(k).toBeLessThanOrEqual(M);
          for (const e of st.entries) {
            if (e.kind !== 'cast-complete') expect(s.surprised[e.combatant]).toBeLessThan(k);
          }
        }
        const counts = countEntries(sch);
        for (const c of enc.combatants) {
          const d = decls[c.id];
          const own = s.surprised[c.id];
          let expected = 0;
          if (own < M && d.action !== 'none') {
            // Begun and gone off within the surprise, or at its end when its time ends with the last segment (README); else carried.
            if (d.action === 'spell' || d.action === 'device') expected = own + 1 + (d.castingTime as number) <= M + 1 ? 2 : 1;
            else if (d.action === 'wait') expected = 1;
            else expected = M - own;
          }
          expect(counts.get(c.id) ?? 0).toBe(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('resolution: nobody acts after being killed in an earlier step, while everyone in the killing step still acts (simultaneous)', () => {
    const hitsArb = fc.array(
      fc.record({ by: fc.nat(), target: fc.nat(), amount: fc.integer({ min: 1, max: 10 }), routine: fc.integer({ min: 1, max: 3 }) }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(fightArb, hitsArb, ({ enc, decls, seed }, hits) => {
        const n = enc.combatants.length;
        const damage: DamageEvent[] = hits.map((h) => ({ round: 1, by: `c${h.by % n}`, target: `c${h.target % n}`, amount: h.amount, routine: h.routine }));
        const dice: Dice = new RandomDice(seed);
        const inp = input(enc, decls);
        const sch = d6.planRound(enc, inp, d6.rollInitiative(enc, inp, dice, opts), opts);
        const log = playSchedule(d6, enc, sch, initialStates(enc), damage, opts);
        const downAt = new Map<string, number>();
        log.steps.forEach((st, k) => {
          for (const e of st.entries) {
            const down = downAt.get(e.entry.combatant);
            if (down !== undefined && down < k) expect(['acts', 'begins', 'goes-off']).not.toContain(e.outcome);
            if (down === undefined && e.entry.kind !== 'cast-complete' && e.entry.kind !== 'cast-begin') expect(e.outcome).toBe('acts');
          }
          for (const f of st.fallen) if (f.condition !== 'ok' && !downAt.has(f.combatant)) downAt.set(f.combatant, k);
        });
        // Damage is never lost to a combatant that died in the same step: all hits by a step's actors land.
        for (const st of log.steps) {
          const actors = new Set(st.entries.filter((e) => e.outcome === 'acts').map((e) => e.entry.combatant));
          for (const dmg of st.damage) if (dmg.by !== undefined) expect(actors.has(dmg.by)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a whole combat of several rounds with random dice never crashes and keeps carried castings consistent', () => {
    fc.assert(
      fc.property(fightArb, ({ enc, decls, seed }) => {
        const log = playCombat(d6, enc, opts, new RandomDice(seed), {
          rounds: 3,
          declarations: (_round, state) => Object.fromEntries(Object.entries(decls).filter(([id]) => d6.canAct(state.states[id]))),
          damage: [],
        });
        for (const r of log.rounds) {
          for (const c of r.carryOut) expect(c.remaining).toBeGreaterThan(0);
          for (const st of r.steps) for (const e of st.entries) expect(['interrupted', 'prevented']).not.toContain(e.outcome);
        }
      }),
      { numRuns: 50 },
    );
  });
});

/* ================================================================ performance */

describe('segment-d6 · scale', () => {
  it('plans a round of 10,000 combatants (its speed: npm run bench, plan.*)', () => {
    const sides: Side[] = Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, name: `S${i}` }));
    const combatants: Combatant[] = [];
    const decls: Record<string, Declaration> = {};
    const kinds: ActionKind[] = ['melee', 'missile', 'spell', 'charge', 'set-vs-charge', 'wait'];
    for (let i = 0; i < 10_000; i++) {
      combatants.push({ id: `c${i}`, name: `C${i}`, side: `s${i % 4}`, hp: 5, routines: 1 + (i % 3), missileBonus: (i % 5) - 2 });
      const action = kinds[i % kinds.length];
      decls[`c${i}`] = { combatant: `c${i}`, action, target: `c${(i * 7 + 1) % 10_000}`, ...(action === 'spell' ? { spell: 'S', castingTime: 1 + (i % 12) } : {}) };
    }
    const enc = { sides, combatants };
    const inp = input(enc, decls);
    const sch = d6.planRound(enc, inp, d6.rollInitiative(enc, inp, new RandomDice(1), opts), opts);
    expect(sch.steps.length).toBeGreaterThan(0);
  });
});

describe('segment-d6: bleeding option (seed silent; README rules notes)', () => {
  // "The round is complete" — the text has no dying rule; tables that play
  // "dead at -10" often bleed 1 hp a round: an option, off by default.
  const sides = [
    { id: 'p', name: 'P' },
    { id: 'm', name: 'M' },
  ];
  const combatants = [
    { id: 'a', name: 'A', side: 'p', hp: 5 },
    { id: 'b', name: 'B', side: 'm', hp: 5 },
  ];
  const play = (options: Record<string, unknown>) =>
    playCombat(d6 as never, { sides, combatants }, { ...d6.defaults, ...options } as never, new ScriptedDice([], new RandomDice(3)), {
      rounds: 3,
      declarations: (round): Record<string, Declaration> => (round === 1 ? { b: { combatant: 'b', action: 'melee', target: 'a' } } : {}),
      damage: [{ round: 1, by: 'b', target: 'a', amount: 7 }],
    });

  it('with dead at -10 and 1 a round, a combatant at -2 bleeds to -4 over two more rounds', () => {
    const log = play({ deathRule: 'minus-ten', bleedPerRound: 1 });
    expect(log.rounds.map((r) => r.states.a.hp)).toEqual([-3, -4, -5]);
    expect(log.rounds[0].end?.events).toEqual([{ kind: 'bleed', combatant: 'a', amount: 1 }]);
    expect(log.states.a.condition).toBe('incapacitated');
  });

  it('off by default, and without the -10 rule nobody bleeds', () => {
    expect(play({ deathRule: 'minus-ten' }).states.a.hp).toBe(-2);
    expect(play({ bleedPerRound: 1 }).states.a).toMatchObject({ hp: -2, condition: 'dead' });
  });
});
