/**
 * Procedure d12-ascending (seed 002_0769f4bfc42c4347.txt, "Combat Procedure").
 * Test names quote the passage or README ruling they check.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RandomDice, ScriptedDice, type Dice, type ScriptedRoll } from '../../src/rules/dice';
import type { ActionKind, Combatant, CombatantState, Declaration, Side } from '../../src/rules/model';
import { resolveOptions, type Encounter, type RoundInput, type Schedule, type SurpriseResult } from '../../src/rules/procedure';
import { initialStates } from '../../src/rules/round';
import { playCombat, playSchedule, type DamageEvent, type RoundLog } from '../../src/rules/play';
import { armorClassNow, castingNow, type FlowState } from '../../src/rules/flow';
import { timeline } from '../../src/rules/timeline';
import * as F from './flow-helpers';
import {
  armorClassWhileCasting,
  ATTACKS_PER_ROUND_TABLE,
  attackOfOpportunityReasons,
  attacksPerRound,
  canFiveFootStep,
  d12AscendingProcedure as P,
  drawsAttackOfOpportunity,
  isChoosing,
  MORALE_RALLY,
  PHASE_FULL_ROUND,
  PHASE_INITIATIVE,
  PHASE_READIED,
  PHASE_SURPRISE,
  PHASE_WITHDRAWAL,
  REASONS,
  surpriseAdjustments,
  surpriseRangeFor,
  type D12AscendingOptions,
} from '../../src/rules/procedures/d12-ascending';

/* ---------------------------------------------------------------- helpers */

const opts = (o: Partial<D12AscendingOptions> = {}): D12AscendingOptions => ({ ...P.defaults, ...o }) as D12AscendingOptions;

let nextId = 0;
function who(side: string, extra: Partial<Combatant> = {}): Combatant {
  const id = extra.id ?? `${side}${++nextId}`;
  return { name: id, hp: 10, kind: 'monster', ...extra, id, side };
}
const pc = (side: string, extra: Partial<Combatant> = {}) => who(side, { kind: 'character', ...extra });

function encounter(combatants: Combatant[], sides?: Side[]): Encounter {
  const ids = [...new Set(combatants.map((c) => c.side))];
  return { sides: sides ?? ids.map((id) => ({ id, name: id })), combatants };
}

const melee = (c: Combatant, target?: string, extra: Partial<Declaration> = {}): Declaration => ({ combatant: c.id, action: 'melee', target, ...extra });
const spell = (c: Combatant, castingTime: number, extra: Partial<Declaration> = {}): Declaration => ({
  combatant: c.id,
  action: 'spell',
  spell: 'magic missile',
  castingTime,
  ...extra,
});
const act = (c: Combatant, action: ActionKind, extra: Partial<Declaration> = {}): Declaration => ({ combatant: c.id, action, ...extra });

function declMap(...ds: Declaration[]): Record<string, Declaration> {
  return Object.fromEntries(ds.map((d) => [d.combatant, d]));
}

function input(enc: Encounter, declarations: Record<string, Declaration>, round = 1, extra: Partial<RoundInput> = {}): RoundInput {
  return { round, declarations, states: initialStates(enc), surprise: null, baseInitiative: {}, carryIn: [], ...extra };
}

/** Roll initiative with scripted dice and plan the round. */
function planned(
  enc: Encounter,
  declarations: Record<string, Declaration>,
  script: ScriptedRoll[],
  o: D12AscendingOptions = opts(),
  round = 1,
  extra: Partial<RoundInput> = {},
): { schedule: Schedule; dice: ScriptedDice } {
  const dice = new ScriptedDice(script.map((s) => ({ round, ...s })));
  const inp = input(enc, declarations, round, extra);
  const ini = P.rollInitiative(enc, inp, dice, o);
  return { schedule: P.planRound(enc, inp, ini, o), dice };
}

const ini = (side: string, result: number): ScriptedRoll => ({ purpose: 'initiative', side, result });
const sur = (side: string, result: number): ScriptedRoll => ({ purpose: 'surprise', side, result, round: 0 });

/** Index of the step holding an entry for the combatant (of a kind), or -1. */
function stepOf(s: Schedule, id: string, kind?: string): number {
  return s.steps.findIndex((st) => st.entries.some((e) => e.combatant === id && (kind === undefined || e.kind === kind)));
}
function entriesOf(s: Schedule, id: string) {
  return s.steps.flatMap((st) => st.entries.filter((e) => e.combatant === id));
}
function outcomes(log: RoundLog, id: string) {
  return log.steps.flatMap((st) => st.entries.filter((e) => e.entry.combatant === id).map((e) => e.outcome));
}

/* ================================================ I  Check for surprise */

describe('I. Check for surprise', () => {
  it('I.B "A 1-4 on a d12 otherwise normally indicates surprise"', () => {
    for (const [roll, expected] of [
      [1, 1],
      [4, 1],
      [5, 0],
      [12, 0],
    ] as const) {
      const a = pc('party');
      const b = who('orcs');
      const r = P.rollSurprise(encounter([a, b]), new ScriptedDice([sur('party', roll), sur('orcs', 12)]), opts());
      expect(r.surprised[a.id]).toBe(expected);
      expect(r.surprised[b.id]).toBe(0);
      expect(r.unit).toBe('round');
      expect(r.rolls).toEqual({ party: roll, orcs: 12 });
    }
    const dice = new ScriptedDice([sur('party', 5), sur('orcs', 5)]);
    P.rollSurprise(encounter([pc('party'), who('orcs')]), dice, opts());
    expect(dice.log.map((l) => l.request)).toEqual([
      { purpose: 'surprise', count: 1, faces: 12, side: 'party', round: 0 },
      { purpose: 'surprise', count: 1, faces: 12, side: 'orcs', round: 0 },
    ]);
  });

  it('worked example: "an elf on point makes the standard enemy surprise range 1-8 instead of 1-4"', () => {
    const elf = pc('party', { surprisesOthersAdjust: 4 });
    const orc = who('orcs');
    const enc = encounter([elf, pc('party'), orc]);
    expect(surpriseRangeFor(enc, 'orcs')).toBe(8);
    expect(surpriseRangeFor(enc, 'party')).toBe(4);
    const at8 = P.rollSurprise(enc, new ScriptedDice([sur('party', 12), sur('orcs', 8)]), opts());
    expect(at8.surprised[orc.id]).toBe(1);
    const at9 = P.rollSurprise(enc, new ScriptedDice([sur('party', 12), sur('orcs', 9)]), opts());
    expect(at9.surprised[orc.id]).toBe(0);
  });

  it('"Having an individual on your side who has good abilities to surprise others imparts that benefit to everyone"', () => {
    const ranger = pc('party', { className: 'ranger', level: 3 });
    const enc = encounter([pc('party'), pc('party'), ranger, who('orcs'), who('orcs')]);
    // "Ranger surprises +2": the orcs' range is 1-6, whoever of the party is seen.
    expect(surpriseRangeFor(enc, 'orcs')).toBe(6);
    // "Ranger is surprised -2": the whole party is only surprised on 1-2.
    expect(surpriseRangeFor(enc, 'party')).toBe(2);
    const r = P.rollSurprise(enc, new ScriptedDice([sur('party', 3), sur('orcs', 6)]), opts());
    for (const c of enc.combatants) expect(r.surprised[c.id]).toBe(c.side === 'orcs' ? 1 : 0);
  });

  it('surprise table: "Monk lvl 5-8 is surprised -1, 9-12 -2, 13 -3"; an explicit adjustment replaces the class row', () => {
    const monk = (level: number) => surpriseAdjustments({ id: 'm', name: 'm', side: 's', hp: 1, className: 'Monk', level }).own;
    expect([monk(4), monk(5), monk(8), monk(9), monk(12), monk(13), monk(17)]).toEqual([0, -1, -1, -2, -2, -3, -3]);
    // "Monster previously surprised 1/10 or better is surprised -3": entered on the monster.
    expect(surpriseAdjustments({ id: 'x', name: 'x', side: 's', hp: 1, surprisedAdjust: -3 }).own).toBe(-3);
    expect(surpriseAdjustments({ id: 'r', name: 'r', side: 's', hp: 1, className: 'ranger', surprisedAdjust: -1 }).own).toBe(-1);
  });

  it('I.A "The DM may dictate that surprise exists": no die is rolled for that side', () => {
    const a = pc('party');
    const b = who('orcs');
    const enc = encounter([a, b], [
      { id: 'party', name: 'Party', surprised: true },
      { id: 'orcs', name: 'Orcs' },
    ]);
    const dice = new ScriptedDice([sur('orcs', 11)]);
    const r = P.rollSurprise(enc, dice, opts());
    expect(r.surprised[a.id]).toBe(1);
    expect(r.surprised[b.id]).toBe(0);
    expect(dice.log.map((l) => l.request.side)).toEqual(['orcs']);
  });

  it('a side that is alerted does not roll and is not surprised', () => {
    const a = pc('party');
    const b = who('orcs');
    const enc = encounter([a, b], [
      { id: 'party', name: 'Party', alerted: true },
      { id: 'orcs', name: 'Orcs' },
    ]);
    const dice = new ScriptedDice([sur('orcs', 2)]);
    const r = P.rollSurprise(enc, dice, opts());
    expect(dice.log).toHaveLength(1);
    expect(r.surprised).toEqual({ [a.id]: 0, [b.id]: 1 });
  });

  it('I.C "If neither side is surprised or both sides are surprised then proceed to step II": no surprise round', () => {
    for (const [p, o] of [
      [2, 3],
      [9, 10],
    ]) {
      const enc = encounter([pc('party'), who('orcs')]);
      const r = P.rollSurprise(enc, new ScriptedDice([sur('party', p), sur('orcs', o)]), opts());
      expect(Object.values(r.surprised).every((v) => v === 0)).toBe(true);
      expect(P.planSurprise(enc, r, {}, opts())).toBeNull();
    }
  });

  it('I.D "Surprise lasts 1 round. If not surprised you act as in a normal round": only the unsurprised act in round 0, everyone in round 1', () => {
    const hero = pc('party', { weapon: { speed: 5, length: 3 } });
    const orc = who('orcs');
    const enc = encounter([hero, orc]);
    const log = playCombat(P, enc, opts(), new ScriptedDice([sur('party', 9), sur('orcs', 1), ini('party', 4), ini('orcs', 6)]), {
      rounds: 1,
      declarations: () => declMap(melee(hero, orc.id), melee(orc, hero.id)),
      damage: [],
    });
    expect(log.surprise.surprised).toEqual({ [hero.id]: 0, [orc.id]: 1 });
    const r0 = log.surpriseRound as RoundLog;
    expect(r0.round).toBe(0);
    expect(r0.steps.flatMap((s) => s.entries.map((e) => e.entry.combatant))).toEqual([hero.id]);
    expect(r0.steps.every((s) => s.phase === PHASE_SURPRISE)).toBe(true);
    expect(outcomes(log.rounds[0], orc.id)).toEqual(['acts']);
    expect(outcomes(log.rounds[0], hero.id)).toEqual(['acts']);
  });

  it('I.D "resolve actions in order of highest surprise die roll first"', () => {
    const a = who('a');
    const b = who('b');
    const c = who('c');
    const enc = encounter([a, b, c]);
    const r = P.rollSurprise(enc, new ScriptedDice([sur('a', 7), sur('b', 10), sur('c', 3)]), opts());
    expect(r.surprised[c.id]).toBe(1);
    const s = P.planSurprise(enc, r, declMap(melee(a, c.id), melee(b, c.id), melee(c, a.id)), opts()) as Schedule;
    expect(stepOf(s, b.id)).toBeLessThan(stepOf(s, a.id));
    expect(stepOf(s, c.id)).toBe(-1);
  });

  it('"If individual surprise is being used then non-surprised characters may act for one round while surprised characters do not"', () => {
    const alert = pc('party');
    const dozy = pc('party');
    const orc = who('orcs');
    const enc = encounter([alert, dozy, orc]);
    const dice = new ScriptedDice([
      sur('orcs', 3),
      { purpose: 'surprise', combatant: alert.id, result: 11 },
      { purpose: 'surprise', combatant: dozy.id, result: 2 },
    ]);
    const r = P.rollSurprise(enc, dice, opts({ initiativeMode: 'individual' }));
    expect(r.surprised).toEqual({ [alert.id]: 0, [dozy.id]: 1, [orc.id]: 1 });
    // "opponents will generally be rolled for as a group"; each PC rolls for itself.
    expect(dice.log.map((l) => l.request.combatant ?? l.request.side)).toEqual([alert.id, dozy.id, 'orcs']);
    const s = P.planSurprise(enc, r, declMap(melee(alert, orc.id), melee(dozy, orc.id), melee(orc, alert.id)), opts()) as Schedule;
    expect(s.steps.flatMap((st) => st.entries.map((e) => e.combatant))).toEqual([alert.id]);
  });

  it('neverSurprised members of a surprised side still act in the surprise round', () => {
    const watcher = pc('party', { neverSurprised: true });
    const other = pc('party');
    const orc = who('orcs');
    const enc = encounter([watcher, other, orc]);
    const r = P.rollSurprise(enc, new ScriptedDice([sur('party', 1), sur('orcs', 12)]), opts());
    expect(r.surprised).toEqual({ [watcher.id]: 0, [other.id]: 1, [orc.id]: 0 });
  });
});

/* ============================================== II  Determine initiative */

describe('II. Determine initiative', () => {
  it('II.A "Sides act in order of lowest to highest result indicated by the die they rolled"', () => {
    const hero = pc('party');
    const orc = who('orcs');
    const enc = encounter([hero, orc]);
    const { schedule, dice } = planned(enc, declMap(melee(hero, orc.id), melee(orc, hero.id)), [ini('party', 8), ini('orcs', 3)]);
    expect(stepOf(schedule, orc.id)).toBeLessThan(stepOf(schedule, hero.id));
    expect(schedule.steps.map((s) => s.count)).toEqual([3, 8]);
    expect(schedule.initiative?.winner).toBe('orcs');
    // Dice requests say what they are for: purpose, side and round.
    expect(dice.log.map((l) => l.request)).toEqual([
      { purpose: 'initiative', count: 1, faces: 12, side: 'party', round: 1 },
      { purpose: 'initiative', count: 1, faces: 12, side: 'orcs', round: 1 },
    ]);
  });

  it('II.F "Ties are just that – simultaneous results"', () => {
    const hero = pc('party', { weapon: { speed: 2, length: 1 } });
    const orc = who('orcs', { weapon: { speed: 9, length: 8 }, routines: 2 });
    const enc = encounter([hero, orc]);
    const { schedule } = planned(enc, declMap(melee(hero, orc.id), melee(orc, hero.id)), [ini('party', 5), ini('orcs', 5)]);
    expect(schedule.steps).toHaveLength(1);
    expect(schedule.initiative?.winner).toBeNull();
  });

  it('II.A "modify by dexterity" is the default: the dexterity adjustment is subtracted from the side\'s d12', () => {
    expect(P.defaults.initiativeMode).toBe('group-adjusted');
    const quick = pc('party', { initiativeAdjustment: 2 });
    const plain = pc('party');
    const orc = who('orcs');
    const enc = encounter([quick, plain, orc]);
    const d = declMap(melee(quick, orc.id), melee(plain, orc.id), melee(orc, plain.id));
    const { schedule } = planned(enc, d, [ini('party', 6), ini('orcs', 4)]);
    // II.B "you might act simultaneous with ... the enemy – even if your side 'lost' initiative".
    expect(stepOf(schedule, quick.id)).toBe(stepOf(schedule, orc.id));
    expect(schedule.steps[stepOf(schedule, quick.id)].count).toBe(4);
    expect(stepOf(schedule, plain.id)).toBeGreaterThan(stepOf(schedule, orc.id));
    // "... or prior to the enemy"
    const quicker = { ...quick, initiativeAdjustment: 3 };
    const enc2 = encounter([quicker, plain, orc]);
    const s2 = planned(enc2, d, [ini('party', 6), ini('orcs', 4)]).schedule;
    expect(stepOf(s2, quicker.id)).toBeLessThan(stepOf(s2, orc.id));
  });

  it("option 'group': the side's die alone, dexterity ignored", () => {
    const quick = pc('party', { initiativeAdjustment: 3 });
    const orc = who('orcs');
    const enc = encounter([quick, orc]);
    const { schedule } = planned(enc, declMap(melee(quick, orc.id), melee(orc, quick.id)), [ini('party', 6), ini('orcs', 4)], opts({ initiativeMode: 'group' }));
    expect(stepOf(schedule, quick.id)).toBeGreaterThan(stepOf(schedule, orc.id));
  });

  it('II.B option "individual rolls": PCs roll individually, opponents "rolled for as a group simply for the sake of DM convenience"', () => {
    const a = pc('party', { initiativeAdjustment: 1, weapon: { speed: 5, length: 3 } });
    const b = pc('party', { weapon: { speed: 5, length: 3 } });
    const o1 = who('orcs');
    const o2 = who('orcs');
    const enc = encounter([a, b, o1, o2]);
    const d = declMap(melee(a, o1.id), melee(b, o2.id), melee(o1, a.id), melee(o2, b.id));
    const { schedule, dice } = planned(
      enc,
      d,
      [ini('orcs', 5), { purpose: 'initiative', combatant: a.id, result: 9 }, { purpose: 'initiative', combatant: b.id, result: 2 }],
      opts({ initiativeMode: 'individual' }),
    );
    expect(dice.log.map((l) => l.request.combatant ?? l.request.side)).toEqual(['orcs', a.id, b.id]);
    expect(schedule.initiative?.individuals).toEqual({ [a.id]: 8, [b.id]: 2 });
    expect(schedule.steps.map((s) => s.count)).toEqual([2, 5, 8]);
    expect(stepOf(schedule, o1.id)).toBe(stepOf(schedule, o2.id));
  });

  it('dead combatants are not planned and a side with nobody able to act rolls no die', () => {
    const hero = pc('party');
    const orc = who('orcs');
    const enc = encounter([hero, orc]);
    const states = initialStates(enc);
    states[orc.id] = { ...states[orc.id], hp: 0, condition: 'dead' };
    const dice = new ScriptedDice([ini('party', 4)]);
    const inp = input(enc, declMap(melee(hero, orc.id), melee(orc, hero.id)), 1, { states });
    const i = P.rollInitiative(enc, inp, dice, opts());
    expect(i.sides).toEqual({ party: 4 });
    const s = P.planRound(enc, inp, i, opts());
    expect(stepOf(s, orc.id)).toBe(-1);
    expect(stepOf(s, hero.id)).toBe(0);
  });
});

/* ---------------------------------------------------------------- spells */

describe('II.C-D and "Casting in Combat"', () => {
  const setup = () => {
    const mage = pc('party', { spells: ['magic missile', 'sleep'] });
    const orc = who('orcs', { weapon: { speed: 5, length: 3 } });
    return { mage, orc, enc: encounter([mage, orc]) };
  };

  it('II.C "A spellcaster may decide on his initiative result what spell to cast ... casting for the duration of the listed casting time; then the effects are resolved"', () => {
    const { mage, orc, enc } = setup();
    const { schedule } = planned(enc, declMap(spell(mage, 4), melee(orc, mage.id)), [ini('party', 3), ini('orcs', 9)]);
    const begin = stepOf(schedule, mage.id, 'cast-begin');
    const done = stepOf(schedule, mage.id, 'cast-complete');
    expect(schedule.steps[begin].count).toBe(3);
    expect(schedule.steps[done].count).toBe(7);
    expect(done).toBeLessThan(stepOf(schedule, orc.id));
    const cast = schedule.castings[0];
    expect(cast).toMatchObject({ caster: mage.id, beginStep: begin, completeStep: done, lossFrom: begin, preventFrom: 0, expends: true });
  });

  it('II.C "Spells needing a full round to cast are resolved last in the round"', () => {
    const { mage, orc, enc } = setup();
    const { schedule } = planned(enc, declMap(spell(mage, 10), melee(orc, mage.id)), [ini('party', 1), ini('orcs', 12)]);
    const done = stepOf(schedule, mage.id, 'cast-complete');
    expect(done).toBe(schedule.steps.length - 1);
    expect(schedule.steps[done].phase).toBe(PHASE_FULL_ROUND);
    expect(done).toBeGreaterThan(stepOf(schedule, orc.id));
    expect(schedule.carryOut).toHaveLength(0);
  });

  const fight = (decl: (m: Combatant, o: Combatant) => Record<string, Declaration>, damage: (m: Combatant, o: Combatant) => DamageEvent[], dice: ScriptedRoll[], rounds = 1) => {
    const { mage, orc, enc } = setup();
    const log = playCombat(P, enc, opts(), new ScriptedDice([sur('party', 12), sur('orcs', 12), ...dice]), {
      rounds,
      declarations: () => decl(mage, orc),
      damage: damage(mage, orc),
    });
    return { log, mage, orc };
  };

  it('"Any damage that a spellcaster takes prior to completing his spell ... whether or not he is actually in the process of casting" prevents it; the spell is kept', () => {
    const { log, mage } = fight(
      (m, o) => declMap(spell(m, 3, { spell: 'sleep' }), melee(o, m.id)),
      (m, o) => [{ round: 1, target: m.id, amount: 2, by: o.id }],
      [ini('orcs', 2), ini('party', 6)],
    );
    const r1 = log.rounds[0];
    expect(r1.steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ caster: mage.id, outcome: 'prevented', expended: false })]);
    expect(outcomes(r1, mage.id)).toEqual(['prevented', 'prevented']);
    expect(log.states[mage.id].expended).toEqual([]);
  });

  it('"struck while actually casting ... the spell is not completed but it is wasted – forgotten and expended"', () => {
    const { log, mage } = fight(
      (m, o) => declMap(spell(m, 5, { spell: 'sleep' }), melee(o, m.id)),
      (m, o) => [{ round: 1, target: m.id, amount: 2, by: o.id }],
      [ini('party', 2), ini('orcs', 4)],
    );
    expect(outcomes(log.rounds[0], mage.id)).toEqual(['begins', 'interrupted']);
    expect(log.states[mage.id].expended).toEqual(['sleep']);
  });

  it('README "Simultaneous actions": a blow landing at the very count the spell goes off does not stop it', () => {
    const { log, mage } = fight(
      (m, o) => declMap(spell(m, 3, { spell: 'sleep' }), melee(o, m.id)),
      (m, o) => [{ round: 1, target: m.id, amount: 2, by: o.id }],
      [ini('party', 2), ini('orcs', 5)],
    );
    expect(outcomes(log.rounds[0], mage.id)).toEqual(['begins', 'goes-off']);
    expect(log.states[mage.id].expended).toEqual(['sleep']);
  });

  it('damage after the spell went off changes nothing', () => {
    const { log, mage } = fight(
      (m, o) => declMap(spell(m, 1), melee(o, m.id)),
      (m, o) => [{ round: 1, target: m.id, amount: 2, by: o.id }],
      [ini('party', 2), ini('orcs', 5)],
    );
    expect(outcomes(log.rounds[0], mage.id)).toEqual(['begins', 'goes-off']);
  });

  it('RULING: a casting of 20 (two rounds) carries over and goes off last in the second round; damage while it runs loses it', () => {
    const { mage, orc, enc } = setup();
    const run = (damage: DamageEvent[]) =>
      playCombat(P, enc, opts(), new ScriptedDice([sur('party', 12), sur('orcs', 12), ini('party', 3), ini('orcs', 5), ini('party', 3), ini('orcs', 5)]), {
        rounds: 2,
        declarations: (round) => (round === 1 ? declMap(spell(mage, 20, { spell: 'sleep' }), act(orc, 'none')) : declMap(act(mage, 'none'), melee(orc, mage.id))),
        damage,
      });
    const calm = run([]);
    expect(calm.rounds[0].carryOut).toEqual([expect.objectContaining({ caster: mage.id, remaining: 10 })]);
    const r2 = calm.rounds[1];
    const last = r2.steps[r2.steps.length - 1];
    expect(last.phase).toBe(PHASE_FULL_ROUND);
    expect(last.entries.map((e) => [e.entry.combatant, e.outcome])).toEqual([[mage.id, 'goes-off']]);
    const hit = run([{ round: 2, target: mage.id, amount: 1, by: orc.id }]);
    expect(hit.rounds[1].steps.flatMap((s) => s.interruptions)).toEqual([expect.objectContaining({ outcome: 'interrupted', expended: true })]);
    expect(hit.states[mage.id].expended).toEqual(['sleep']);
  });

  it('RULING: a magic device is not spellcasting, damage does not stop it', () => {
    const { log, mage } = fight(
      (m, o) => declMap({ combatant: m.id, action: 'device', spell: 'wand of fire', castingTime: 3 }, melee(o, m.id)),
      (m, o) => [{ round: 1, target: m.id, amount: 2, by: o.id }],
      [ini('party', 2), ini('orcs', 3)],
    );
    expect(outcomes(log.rounds[0], mage.id)).toEqual(['begins', 'goes-off']);
    expect(log.states[mage.id].expended).toEqual([]);
  });
});

/* ------------------------------------------------------------- II.E charge */

describe('II.E "the longer weapon strikes first, regardless of initiative"', () => {
  const spear = { name: 'spear', speed: 6, length: 8 };
  const sword = { name: 'sword', speed: 5, length: 3.5 };

  it('a defender with the longer weapon strikes in a step just before the charger, though it lost initiative', () => {
    const knight = who('raiders', { weapon: sword });
    const guard = pc('party', { weapon: spear });
    const bystander = pc('party');
    const enc = encounter([knight, guard, bystander]);
    const d = declMap({ combatant: knight.id, action: 'charge', target: guard.id }, melee(guard), act(bystander, 'move'));
    const { schedule } = planned(enc, d, [ini('party', 9), ini('raiders', 2)]);
    const g = stepOf(schedule, guard.id);
    const k = stepOf(schedule, knight.id);
    expect(g).toBe(k - 1);
    expect(schedule.steps[g].count).toBe(2);
    expect(entriesOf(schedule, guard.id)[0].reason).toBe(REASONS.longerWeapon);
    // It strikes once: nothing left for it at its own count.
    expect(entriesOf(schedule, guard.id)).toHaveLength(1);
    expect(schedule.steps[stepOf(schedule, bystander.id)].count).toBe(9);
  });

  it('a charger with the longer weapon strikes first even against a defender who won initiative', () => {
    const lancer = who('raiders', { weapon: spear });
    const guard = pc('party', { weapon: sword });
    const enc = encounter([lancer, guard]);
    const d = declMap({ combatant: lancer.id, action: 'charge', target: guard.id }, melee(guard, lancer.id));
    const { schedule } = planned(enc, d, [ini('party', 2), ini('raiders', 7)]);
    expect(stepOf(schedule, lancer.id)).toBeLessThan(stepOf(schedule, guard.id));
  });

  it('equal lengths: initiative decides; a defender busy with someone else gets no first strike', () => {
    const knight = who('raiders', { weapon: sword });
    const guard = pc('party', { weapon: spear });
    const other = who('raiders');
    const enc = encounter([knight, guard, other]);
    const d = declMap({ combatant: knight.id, action: 'charge', target: guard.id }, melee(guard, other.id), act(other, 'none'));
    const { schedule } = planned(enc, d, [ini('party', 9), ini('raiders', 2)]);
    expect(stepOf(schedule, knight.id)).toBeLessThan(stepOf(schedule, guard.id));
    const same = declMap({ combatant: knight.id, action: 'charge', target: guard.id }, melee(guard, knight.id, { weapon: sword }));
    const s2 = planned(encounter([knight, guard]), same, [ini('party', 9), ini('raiders', 2)]).schedule;
    expect(stepOf(s2, knight.id)).toBeLessThan(stepOf(s2, guard.id));
  });

  it('"Weapons always win initiative vs. unarmed unless special abilities apply [e.g. monks are never \'unarmed\']"', () => {
    const brawler = pc('party');
    const orc = who('orcs', { weapon: sword });
    const enc = encounter([brawler, orc]);
    const d = declMap(melee(brawler, orc.id), melee(orc, brawler.id));
    const { schedule } = planned(enc, d, [ini('party', 1), ini('orcs', 11)]);
    expect(stepOf(schedule, orc.id)).toBeLessThan(stepOf(schedule, brawler.id));
    expect(entriesOf(schedule, orc.id)[0].reason).toBe(REASONS.armedVsUnarmed);

    const monk = pc('party', { className: 'monk', level: 3 });
    const enc2 = encounter([monk, orc]);
    const s2 = planned(enc2, declMap(melee(monk, orc.id), melee(orc, monk.id)), [ini('party', 1), ini('orcs', 11)]).schedule;
    expect(stepOf(s2, monk.id)).toBeLessThan(stepOf(s2, orc.id));
  });
});

/* ------------------------------------------------------- II.G tie-breaks */

describe('II.G optional tie-breaks', () => {
  const dagger = { speed: 2, length: 1 };
  const halberd = { speed: 9, length: 8 };

  it('all four options default off: ties stay simultaneous (II.F)', () => {
    expect([P.defaults.tieWeaponSpeed, P.defaults.tieMoreAttacks, P.defaults.tieSpellVsMelee, P.defaults.tieMissileVsSpell]).toEqual([false, false, false, false]);
  });

  it('"Ties between melee weapons may be decided by comparing WSF"', () => {
    const a = pc('party', { weapon: dagger });
    const b = who('orcs', { weapon: halberd });
    const enc = encounter([a, b]);
    const d = declMap(melee(a, b.id), melee(b, a.id));
    const { schedule } = planned(enc, d, [ini('party', 5), ini('orcs', 5)], opts({ tieWeaponSpeed: true }));
    expect(stepOf(schedule, a.id)).toBeLessThan(stepOf(schedule, b.id));
    expect(schedule.steps.map((s) => s.count)).toEqual([5, 5]);
    expect(entriesOf(schedule, b.id)[0].reason).toBe(REASONS.tieSpeed);
  });

  it('"Ties involving multiple weapon attacks (missiles too) go to whoever has more attacks"', () => {
    const lord = pc('party', { className: 'fighter', level: 13, weapon: halberd });
    const archer = who('orcs', { weapon: { missile: true, rate: 1 } });
    const slinger = who('orcs', { weapon: { missile: true, rate: 3 } });
    const enc = encounter([lord, archer, slinger]);
    const d = declMap(melee(lord, archer.id), act(archer, 'missile', { target: lord.id }), act(slinger, 'missile', { target: lord.id }));
    const { schedule } = planned(enc, d, [ini('party', 5), ini('orcs', 5)], opts({ tieMoreAttacks: true }));
    // slinger 3 missiles > lord 2 attacks > archer 1
    expect(stepOf(schedule, slinger.id)).toBeLessThan(stepOf(schedule, lord.id));
    expect(stepOf(schedule, lord.id)).toBeLessThan(stepOf(schedule, archer.id));
  });

  it('"Ties between spell completion and a melee strike go to whichever is lower of the casting time or WSF"', () => {
    const mage = pc('party');
    const quick = who('orcs', { weapon: dagger });
    const slow = who('orcs', { weapon: halberd });
    const enc = encounter([mage, quick, slow]);
    // begins at 2, casting time 3: goes off at 5, tied with both orcs.
    const d = declMap(spell(mage, 3), melee(quick, mage.id), melee(slow, mage.id));
    const { schedule } = planned(enc, d, [ini('party', 2), ini('orcs', 5)], opts({ tieSpellVsMelee: true }));
    const done = stepOf(schedule, mage.id, 'cast-complete');
    expect(stepOf(schedule, quick.id)).toBeLessThan(done); // WSF 2 < 3
    expect(done).toBeLessThan(stepOf(schedule, slow.id)); // 3 < WSF 9
  });

  it('"Ties between missile fire and spell completion go to the missile if spell casting time is actually higher than initiative die result"', () => {
    const slowMage = pc('party', { initiativeAdjustment: 0 });
    const archer = who('orcs', { weapon: { missile: true } });
    const enc = encounter([slowMage, archer]);
    // result 3, casting time 5 > 3: goes off at 8, the missile at 8 goes first.
    const o = opts({ tieMissileVsSpell: true });
    const s1 = planned(enc, declMap(spell(slowMage, 5), act(archer, 'missile', { target: slowMage.id })), [ini('party', 3), ini('orcs', 8)], o).schedule;
    expect(stepOf(s1, archer.id)).toBeLessThan(stepOf(s1, slowMage.id, 'cast-complete'));
    // result 6, casting time 2 (not higher): the tie stands.
    const s2 = planned(enc, declMap(spell(slowMage, 2), act(archer, 'missile', { target: slowMage.id })), [ini('party', 6), ini('orcs', 8)], o).schedule;
    expect(stepOf(s2, archer.id)).toBe(stepOf(s2, slowMage.id, 'cast-complete'));
    // Option off: simultaneous.
    const s3 = planned(enc, declMap(spell(slowMage, 5), act(archer, 'missile', { target: slowMage.id })), [ini('party', 3), ini('orcs', 8)]).schedule;
    expect(stepOf(s3, archer.id)).toBe(stepOf(s3, slowMage.id, 'cast-complete'));
  });
});

/* ============================================= III  Additional rules */

describe('III. Additional combat rules', () => {
  it('III.A "missile weapon ready and target in sight fires before initiative is rolled" – once, not again on its turn', () => {
    const archer = pc('party', { weapon: { missile: true, rate: 2 } });
    const orc = who('orcs');
    const enc = encounter([archer, orc]);
    const d = declMap(act(archer, 'missile', { target: orc.id, readied: true }), melee(orc, archer.id));
    const { schedule } = planned(enc, d, [ini('party', 10), ini('orcs', 1)]);
    expect(schedule.steps[0].phase).toBe(PHASE_READIED);
    expect(schedule.steps[0].entries.map((e) => [e.combatant, e.reason])).toEqual([[archer.id, REASONS.readied]]);
    expect(entriesOf(schedule, archer.id)).toHaveLength(1);
    expect(schedule.steps[1]).toMatchObject({ phase: PHASE_INITIATIVE, count: 1 });
  });

  it('III.B "ALL a characters attacks resolve on their turn": every routine in one step', () => {
    const lord = pc('party', { className: 'Fighter', level: 13, weapon: { speed: 5, length: 3 } });
    const orc = who('orcs', { routines: 3 });
    const enc = encounter([lord, orc]);
    const { schedule } = planned(enc, declMap(melee(lord, orc.id), melee(orc, lord.id)), [ini('party', 3), ini('orcs', 7)]);
    expect(schedule.steps[0].entries.map((e) => [e.kind, e.routine])).toEqual([
      ['action', 1],
      ['routine', 2],
    ]);
    expect(schedule.steps[1].entries).toHaveLength(3);
  });

  it('III.D "Faster movement than that sacrifices any combat": a charge longer than the standard move makes no attack', () => {
    const orc = who('orcs', { movement: 90 });
    const hero = pc('party');
    const enc = encounter([orc, hero]);
    const far = planned(enc, declMap({ combatant: orc.id, action: 'charge', target: hero.id, distance: 120 }), [ini('orcs', 3), ini('party', 5)]).schedule;
    expect(entriesOf(far, orc.id)).toEqual([expect.objectContaining({ action: 'move', reason: REASONS.chargeTooFar })]);
    const near = planned(enc, declMap({ combatant: orc.id, action: 'charge', target: hero.id, distance: 60 }), [ini('orcs', 3), ini('party', 5)]).schedule;
    expect(entriesOf(near, orc.id)).toEqual([expect.objectContaining({ action: 'charge', kind: 'action' })]);
  });

  it('"Disengaging forces ... sacrifice any and ALL initiative advantage for the round": fleeing comes after every count', () => {
    const coward = who('orcs');
    const hero = pc('party');
    const enc = encounter([coward, hero]);
    const { schedule } = planned(enc, declMap(act(coward, 'flee'), melee(hero, coward.id)), [ini('orcs', 1), ini('party', 12)]);
    expect(stepOf(schedule, coward.id)).toBeGreaterThan(stepOf(schedule, hero.id));
    expect(schedule.steps[stepOf(schedule, coward.id)].phase).toBe(PHASE_WITHDRAWAL);
  });

  it('III.C "Missile fire versus adjacent opponents attacking you with a melee weapon draws an Attack of Opportunity"', () => {
    expect(attackOfOpportunityReasons({ action: 'missile', adjacentMeleeAttackers: 1 })).toEqual([REASONS.aooMissile]);
    expect(drawsAttackOfOpportunity({ action: 'missile', adjacentMeleeAttackers: 0 })).toBe(false);
  });

  it('III.C "Casting while in melee range also draws an AoO"', () => {
    expect(attackOfOpportunityReasons({ action: 'spell', inMeleeRange: true })).toEqual([REASONS.aooCasting]);
    expect(drawsAttackOfOpportunity({ action: 'spell', inMeleeRange: false })).toBe(false);
    expect(drawsAttackOfOpportunity({ action: 'melee', inMeleeRange: true })).toBe(false);
  });

  it('III.F "Moving more than 5\' while remaining within melee range of an opponent allows an Attack of Opportunity"; "The 5\' Step" does not', () => {
    expect(attackOfOpportunityReasons({ action: 'move', inMeleeRange: true, movedFeet: 10 })).toEqual([REASONS.aooMoving]);
    expect(drawsAttackOfOpportunity({ action: 'move', inMeleeRange: true, movedFeet: 5, fiveFootStep: true })).toBe(false);
    expect(drawsAttackOfOpportunity({ action: 'move', inMeleeRange: false, movedFeet: 30 })).toBe(false);
    // "if you're ONLY allowed to move 5' or less in the first place you lose the ability to make a 5' Step"
    expect(canFiveFootStep({ movedFeet: 5, movementLimitFeet: 5 })).toBe(false);
    expect(drawsAttackOfOpportunity({ action: 'move', inMeleeRange: true, movedFeet: 5, fiveFootStep: true, movementLimitFeet: 5 })).toBe(true);
    // "this assumes that this is your only movement for that round"
    expect(canFiveFootStep({ movedFeet: 5, otherMovement: true })).toBe(false);
    expect(canFiveFootStep({ movedFeet: 5 })).toBe(true);
  });

  it('"Flee in panic ... Opponents may take an AoO at your back"', () => {
    expect(attackOfOpportunityReasons({ action: 'flee', panic: true, inMeleeRange: true, movedFeet: 60 })).toEqual([REASONS.aooFleeing]);
  });
});

/* ========================================= attacks per round by level */

describe('"MULTIPLE ATTACKS PER ROUND BY LEVEL"', () => {
  it('the table, row by row', () => {
    const rows: [string, number, number, number][] = [
      // class, last 1/1 level, last 3/2 level, first 2/1 level
      ['fighter', 6, 12, 13],
      ['paladin', 7, 13, 14],
      ['ranger', 7, 14, 15],
      ['monk', 5, 11, 12],
    ];
    for (const [cls, one, threeHalves, two] of rows) {
      expect(attacksPerRound(cls, 1, 2)).toBe(1);
      expect(attacksPerRound(cls, one, 2)).toBe(1);
      expect(attacksPerRound(cls, one + 1, 1)).toBe(1);
      expect(attacksPerRound(cls, one + 1, 2)).toBe(2);
      expect(attacksPerRound(cls, threeHalves, 3)).toBe(1);
      expect(attacksPerRound(cls, two, 1)).toBe(2);
      expect(attacksPerRound(cls, 20, 1)).toBe(2);
    }
    expect(Object.keys(ATTACKS_PER_ROUND_TABLE).sort()).toEqual(['fighter', 'monk', 'paladin', 'ranger']);
    expect(attacksPerRound('cleric', 9, 1)).toBeUndefined();
  });

  it('README "3/2 attacks": "One attack routine in odd rounds of the combat, two in even rounds"', () => {
    const vet = pc('party', { className: 'fighter', level: 8 });
    const orc = who('orcs');
    const enc = encounter([vet, orc]);
    const d = declMap(melee(vet, orc.id));
    const counts = [1, 2, 3, 4].map((round) => entriesOf(planned(enc, d, [ini('party', 4), ini('orcs', 4)], opts(), round).schedule, vet.id).length);
    expect(counts).toEqual([1, 2, 1, 2]);
  });

  it('RULING: the surprise round is the combat\'s first round, so after one the 3/2 fighter strikes twice in round 1', () => {
    const vet = pc('party', { className: 'fighter', level: 8 });
    const orc = who('orcs');
    const enc = encounter([vet, orc]);
    const log = playCombat(P, enc, opts(), new ScriptedDice([sur('party', 10), sur('orcs', 2), ini('party', 4), ini('orcs', 6), ini('party', 4), ini('orcs', 6)]), {
      rounds: 2,
      declarations: () => declMap(melee(vet, orc.id, { target: orc.id }), act(orc, 'parley')),
      damage: [],
    });
    expect(outcomes(log.surpriseRound as RoundLog, vet.id)).toHaveLength(1);
    expect(outcomes(log.rounds[0], vet.id)).toHaveLength(2);
    expect(outcomes(log.rounds[1], vet.id)).toHaveLength(1);
  });

  it('a declared number of routines overrides the table', () => {
    const lord = pc('party', { className: 'fighter', level: 15 });
    const enc = encounter([lord, who('orcs')]);
    const s = planned(enc, declMap(melee(lord, undefined, { routines: 1 })), [ini('party', 4), ini('orcs', 4)]).schedule;
    expect(entriesOf(s, lord.id)).toHaveLength(1);
  });
});

/* ========================================================= death, morale */

describe('death and morale', () => {
  it('RULING (text silent): dead at 0 hp by default; option deathAt -10 leaves 0 … -9 dying', () => {
    const c = pc('party');
    const s: CombatantState = { hp: 5, condition: 'ok', expended: [] };
    expect(P.applyDamage(c, s, 5, opts()).state.condition).toBe('dead');
    expect(P.applyDamage(c, s, 4, opts()).state.condition).toBe('ok');
    const o = opts({ deathAt: -10 });
    expect(P.applyDamage(c, s, 5, o).state.condition).toBe('dying');
    expect(P.canAct(P.applyDamage(c, s, 5, o).state)).toBe(false);
    expect(P.applyDamage(c, s, 15, o).state.condition).toBe('dead');
    // Bad input: negative or non-finite damage heals nobody and crashes nothing.
    expect(P.applyDamage(c, s, -3, opts()).state.hp).toBe(5);
    expect(P.applyDamage(c, s, Number.NaN, opts()).state.hp).toBe(5);
  });

  it('a combatant killed at an earlier count does not act; two who strike at the same count both land (README "Simultaneous actions")', () => {
    const hero = pc('party', { hp: 4, weapon: { speed: 5, length: 3 } });
    const orc = who('orcs', { hp: 4 });
    const goblin = who('orcs', { hp: 4 });
    const enc = encounter([hero, orc, goblin]);
    const log = playCombat(P, enc, opts(), new ScriptedDice([sur('party', 12), sur('orcs', 12), ini('party', 5), ini('orcs', 5)]), {
      rounds: 1,
      declarations: () => declMap(melee(hero, orc.id), melee(orc, hero.id), melee(goblin, hero.id)),
      damage: [
        { round: 1, target: orc.id, amount: 9, by: hero.id },
        { round: 1, target: hero.id, amount: 9, by: orc.id },
      ],
    });
    expect(log.states[hero.id].condition).toBe('dead');
    expect(log.states[orc.id].condition).toBe('dead');
    expect(log.rounds[0].end?.events).toEqual(expect.arrayContaining([{ kind: 'death', combatant: hero.id }, { kind: 'death', combatant: orc.id }]));

    const enc2 = encounter([hero, orc]);
    const log2 = playCombat(P, enc2, opts(), new ScriptedDice([sur('party', 12), sur('orcs', 12), ini('party', 2), ini('orcs', 5)]), {
      rounds: 1,
      declarations: () => declMap(melee(hero, orc.id), melee(orc, hero.id)),
      damage: [
        { round: 1, target: orc.id, amount: 9, by: hero.id },
        { round: 1, target: hero.id, amount: 9, by: orc.id },
      ],
    });
    expect(outcomes(log2.rounds[0], orc.id)).toEqual(['cannot-act']);
    expect(log2.states[hero.id].condition).toBe('ok');
  });

  it('"no formal method is given herein for checking morale": no check the GM did not call for, no opening morale', () => {
    const hero = pc('party');
    const orc = who('orcs', { morale: 1 });
    const enc = encounter([hero, orc]);
    const st = initialStates(enc);
    const res = P.endOfRound(enc, { round: 1, before: st, after: st, hits: [{ target: orc.id, wounds: 9 }] }, new RandomDice(1), opts());
    expect(res.events).toEqual([]);
    expect(res.states[orc.id].routed).toBeUndefined();
    expect(P.openingMorale).toBeUndefined();
    expect(P.rollCombatInitiative(enc, enc.combatants, new RandomDice(1), opts())).toEqual({});
  });
});

/* ================================================================ errors */

describe('bad declarations get a Problem, never a crash', () => {
  const hero = pc('party', { id: 'hero', spells: ['sleep'] });
  const check = (d: Partial<Declaration>, c: Combatant = hero) => P.validateDeclaration({ combatant: c.id, action: 'melee', ...d } as Declaration, c, opts());

  it('shared checks', () => {
    expect(check({})).toBeNull();
    expect(check({ combatant: 'someone' })?.key).toBe('DeclarationWrongCombatant');
    expect(check({ action: 'delay' })?.key).toBe('ActionNotInProcedure');
    expect(check({ action: 'spell', spell: 'sleep' })?.key).toBe('CastingTimeInvalid');
    expect(check({ action: 'spell', spell: 'wish', castingTime: 3 })?.key).toBe('SpellNotMemorized');
  });

  it('procedure checks', () => {
    expect(check({ action: 'melee', readied: true })).toEqual({ key: 'D12ReadiedNotMissile', data: { name: 'hero', action: 'melee' } });
    expect(check({ routines: 0 })?.key).toBe('D12RoutinesInvalid');
    expect(check({ routines: 1.5 })?.key).toBe('D12RoutinesInvalid');
    expect(check({ weapon: { speed: -1 } })).toEqual({ key: 'D12WeaponInvalid', data: { name: 'hero', field: 'speed' } });
    expect(check({ action: 'missile', weapon: { missile: true, rate: 0 } })?.key).toBe('D12WeaponInvalid');
    expect(check({ target: 'hero' })?.key).toBe('D12TargetSelf');
    const lost = pc('party', { id: 'lost', className: 'fighter' });
    expect(check({ combatant: 'lost' }, lost)).toEqual({ key: 'D12LevelInvalid', data: { name: 'lost', className: 'fighter' } });
    const odd = pc('party', { id: 'odd', initiativeAdjustment: Number.NaN });
    expect(check({ combatant: 'odd' }, odd)?.key).toBe('NumberInvalid');
  });

  it('playCombat turns a bad declaration into a RulesError carrying the Problem', () => {
    const orc = who('orcs');
    const enc = encounter([hero, orc]);
    expect(() =>
      playCombat(P, enc, opts(), new ScriptedDice([sur('party', 12), sur('orcs', 12), ini('party', 1), ini('orcs', 1)]), {
        rounds: 1,
        declarations: (r) => (r === 1 ? declMap(melee(hero, orc.id, { readied: true })) : {}),
        damage: [],
      }),
    ).toThrow(/D12ReadiedNotMissile/);
  });

  it('options are checked against their specs', () => {
    expect(resolveOptions(P, { initiativeMode: 'individual' }).problems).toEqual([]);
    expect(resolveOptions(P, { initiativeMode: 'chaos' }).problems[0].key).toBe('BadOption');
    expect(resolveOptions(P, { deathAt: -20 }).problems[0].key).toBe('BadOption');
    expect(resolveOptions(P, { nonsense: true }).problems[0].key).toBe('UnknownOption');
  });
});

/* ============================================================= late join */

describe('late joiners (RULING: act on their side\'s result if it has not passed)', () => {
  it('joins the step of its side\'s count, or waits for the next round', () => {
    const hero = pc('party');
    const orc = who('orcs');
    const wolf = who('orcs', { id: 'wolf' });
    const enc = encounter([hero, orc, wolf]);
    const { schedule } = planned(enc, declMap(melee(hero, orc.id), melee(orc, hero.id)), [ini('orcs', 3), ini('party', 8)]);
    const early = P.lateJoin(enc, wolf, { round: 1, schedule, currentStep: -1, declaration: melee(wolf, hero.id), baseInitiative: {} }, new RandomDice(1), opts());
    expect(stepOf(early.schedule, wolf.id)).toBe(stepOf(early.schedule, orc.id));
    const late = P.lateJoin(enc, wolf, { round: 1, schedule, currentStep: 1, declaration: melee(wolf, hero.id), baseInitiative: {} }, new RandomDice(1), opts());
    expect(stepOf(late.schedule, wolf.id)).toBe(-1);
  });

  it('a late caster gets a casting whose steps are right, and earlier castings are shifted', () => {
    const mage = pc('party');
    const orc = who('orcs');
    const shaman = who('orcs', { id: 'shaman' });
    const enc = encounter([mage, orc, shaman]);
    const { schedule } = planned(enc, declMap(spell(mage, 6), melee(orc, mage.id)), [ini('party', 2), ini('orcs', 4)]);
    const res = P.lateJoin(enc, shaman, { round: 1, schedule, currentStep: 0, declaration: spell(shaman, 1), baseInitiative: {} }, new RandomDice(1), opts());
    const s = res.schedule;
    for (const cast of s.castings) {
      expect(s.steps[cast.beginStep].entries.some((e) => e.kind === 'cast-begin' && e.casting === cast.id)).toBe(true);
      expect(s.steps[cast.completeStep as number].entries.some((e) => e.kind === 'cast-complete' && e.casting === cast.id)).toBe(true);
      expect(cast.lossFrom).toBe(cast.beginStep);
    }
    expect(s.steps.map((st) => st.count)).toEqual([2, 4, 5, 8]);
  });
});

/* ================================================= property-based tests */

const ACTIONS_FOR_PROPS: ActionKind[] = ['melee', 'missile', 'spell', 'device', 'charge', 'move', 'flee', 'parley', 'full-defense', 'other', 'none', 'turn-undead'];

const arbEncounter = fc
  .record({
    sides: fc.integer({ min: 2, max: 3 }),
    people: fc.array(
      fc.record({
        side: fc.nat(2),
        character: fc.boolean(),
        adj: fc.integer({ min: -2, max: 3 }),
        cls: fc.constantFrom(undefined, 'fighter', 'paladin', 'ranger', 'monk', 'cleric'),
        level: fc.integer({ min: 1, max: 18 }),
        routines: fc.integer({ min: 1, max: 3 }),
        weapon: fc.option(fc.record({ speed: fc.integer({ min: 1, max: 10 }), length: fc.integer({ min: 1, max: 12 }) }), { nil: undefined }),
        elf: fc.boolean(),
        action: fc.constantFrom(...ACTIONS_FOR_PROPS),
        castingTime: fc.integer({ min: 1, max: 25 }),
        target: fc.nat(40),
        readied: fc.boolean(),
        declRoutines: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      }),
      { minLength: 2, maxLength: 14 },
    ),
    options: fc.record({
      initiativeMode: fc.constantFrom('group', 'group-adjusted', 'individual') as fc.Arbitrary<D12AscendingOptions['initiativeMode']>,
      tieWeaponSpeed: fc.boolean(),
      tieMoreAttacks: fc.boolean(),
      tieSpellVsMelee: fc.boolean(),
      tieMissileVsSpell: fc.boolean(),
    }),
    seed: fc.integer(),
    round: fc.integer({ min: 1, max: 4 }),
    dmg: fc.array(fc.record({ target: fc.nat(40), by: fc.nat(40), amount: fc.integer({ min: 1, max: 12 }) }), { maxLength: 12 }),
  })
  .map((r) => {
    const sideIds = Array.from({ length: r.sides }, (_, i) => `s${i}`);
    const combatants: Combatant[] = r.people.map((p, i) => ({
      id: `c${i}`,
      name: `c${i}`,
      side: sideIds[p.side % r.sides],
      kind: p.character ? 'character' : 'monster',
      hp: 8,
      initiativeAdjustment: p.adj,
      className: p.cls,
      level: p.level,
      routines: p.routines,
      weapon: p.weapon,
      surprisesOthersAdjust: p.elf ? 4 : undefined,
    }));
    const declarations: Record<string, Declaration> = {};
    r.people.forEach((p, i) => {
      const c = combatants[i];
      const d: Declaration = { combatant: c.id, action: p.action };
      const t = combatants[p.target % combatants.length];
      if (t.id !== c.id && p.action !== 'none') d.target = t.id;
      if (p.action === 'spell' || p.action === 'device') {
        d.castingTime = p.castingTime;
        d.spell = `spell${i}`;
      }
      if (p.action === 'missile') {
        d.readied = p.readied;
        d.weapon = { missile: true, rate: 1 + (i % 2) };
      }
      if ((p.action === 'melee' || p.action === 'charge') && p.declRoutines !== undefined) d.routines = p.declRoutines;
      declarations[c.id] = d;
    });
    const enc: Encounter = { sides: sideIds.map((id) => ({ id, name: id })), combatants };
    const damage: DamageEvent[] = r.dmg.map((x) => ({
      round: r.round,
      target: combatants[x.target % combatants.length].id,
      by: combatants[x.by % combatants.length].id,
      amount: x.amount,
    }));
    return { enc, declarations, options: opts(r.options), seed: r.seed, round: r.round, damage };
  });

/** Entries a combatant should have, from its declaration and the attack table. */
function expectedEntries(c: Combatant, d: Declaration, combatRound: number): number {
  switch (d.action) {
    case 'none':
      return 0;
    case 'melee':
    case 'charge': {
      if (d.routines !== undefined) return d.routines;
      const table = attacksPerRound(c.className, c.level, combatRound);
      return table ?? c.routines ?? 1;
    }
    case 'missile':
      return d.routines ?? 1;
    case 'spell':
    case 'device':
      return (d.castingTime as number) <= 10 ? 2 : 1;
    default:
      return 1;
  }
}

const RANKS: Record<string, number> = { [PHASE_READIED]: 0, [PHASE_SURPRISE]: 1, [PHASE_INITIATIVE]: 1, [PHASE_WITHDRAWAL]: 2, [PHASE_FULL_ROUND]: 3 };

describe('properties over random encounters', () => {
  it('every declaration is valid for the procedure (the generator itself)', () => {
    fc.assert(
      fc.property(arbEncounter, ({ enc, declarations, options }) => {
        for (const c of enc.combatants) expect(P.validateDeclaration(declarations[c.id], c, options)).toBeNull();
      }),
      { numRuns: 50 },
    );
  });

  it('each living combatant appears exactly as often as its declaration and attack routines allow; steps are in order; the same dice give the same schedule', () => {
    fc.assert(
      fc.property(arbEncounter, ({ enc, declarations, options, seed, round }) => {
        const inp = input(enc, declarations, round);
        const make = () => {
          const dice = new RandomDice(seed);
          return P.planRound(enc, inp, P.rollInitiative(enc, inp, dice, options), options);
        };
        const s = make();
        expect(make()).toEqual(s);
        const seen = new Map<string, number>();
        for (const st of s.steps) for (const e of st.entries) seen.set(e.combatant, (seen.get(e.combatant) ?? 0) + 1);
        for (const c of enc.combatants) expect(seen.get(c.id) ?? 0).toBe(expectedEntries(c, declarations[c.id], round));
        for (let i = 1; i < s.steps.length; i++) {
          const a = s.steps[i - 1];
          const b = s.steps[i];
          expect(RANKS[b.phase]).toBeGreaterThanOrEqual(RANKS[a.phase]);
          if (a.phase === PHASE_INITIATIVE && b.phase === PHASE_INITIATIVE) expect(b.count as number).toBeGreaterThanOrEqual(a.count as number);
        }
        // Every combatant's entries sit in one step, except a casting's begin and completion.
        for (const c of enc.combatants) {
          const steps = new Set(s.steps.flatMap((st, i) => (st.entries.some((e) => e.combatant === c.id) ? [i] : [])));
          const d = declarations[c.id];
          const castingSteps = d.action === 'spell' || d.action === 'device' ? ((d.castingTime as number) <= 10 ? 2 : 1) : 1;
          if (d.action !== 'none') expect(steps.size).toBe(castingSteps);
        }
        // Castings point at their own entries.
        for (const cast of s.castings) {
          expect(s.steps[cast.beginStep].entries.some((e) => e.casting === cast.id && e.kind === 'cast-begin')).toBe(true);
          if (cast.completeStep !== null) {
            expect(cast.completeStep).toBeGreaterThan(cast.beginStep);
            expect(s.steps[cast.completeStep].entries.some((e) => e.casting === cast.id && e.kind === 'cast-complete')).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('nobody acts after being killed in an earlier step, while damage in the same step still lands', () => {
    fc.assert(
      fc.property(arbEncounter, ({ enc, declarations, options, seed, round, damage }) => {
        const inp = input(enc, declarations, round);
        const s = P.planRound(enc, inp, P.rollInitiative(enc, inp, new RandomDice(seed), options), options);
        const log = playSchedule(P, enc, s, inp.states, damage, options);
        const fallenAt = new Map<string, number>();
        for (const st of log.steps) {
          for (const e of st.entries) {
            const f = fallenAt.get(e.entry.combatant);
            if (e.outcome === 'acts' || e.outcome === 'goes-off' || e.outcome === 'begins') expect(f === undefined || f >= st.index).toBe(true);
          }
          for (const x of st.fallen) if (!fallenAt.has(x.combatant)) fallenAt.set(x.combatant, st.index);
        }
        // Each attacker's scripted blows land in the step of its first attack
        // exactly when that attack acted, even if the attacker falls in that step.
        for (const c of enc.combatants) {
          const blows = damage.filter((d) => d.by === c.id).length;
          if (blows === 0) continue;
          const k = log.steps.findIndex((st) => st.entries.some((e) => e.entry.combatant === c.id && (e.entry.kind === 'action' || e.entry.kind === 'routine')));
          const acted = k >= 0 && log.steps[k].entries.some((e) => e.entry.combatant === c.id && e.entry.kind === 'action' && e.outcome === 'acts');
          const landed = log.steps.flatMap((st) => st.damage.filter((d) => d.by === c.id).map(() => st.index));
          expect(landed).toEqual(acted ? Array(blows).fill(k) : []);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('nobody surprised acts in the surprise round, and the surprise round only exists when some are surprised and some are not', () => {
    fc.assert(
      fc.property(arbEncounter, fc.integer(), ({ enc, declarations, options }, seed) => {
        const surprise: SurpriseResult = P.rollSurprise(enc, new RandomDice(seed), options);
        const s = P.planSurprise(enc, surprise, declarations, options);
        const flags = enc.combatants.map((c) => surprise.surprised[c.id]);
        expect(flags.every((f) => f === 0 || f === 1)).toBe(true);
        if (!s) {
          expect(flags.every((f) => f === 0)).toBe(true);
          return;
        }
        expect(flags.some((f) => f === 1) && flags.some((f) => f === 0)).toBe(true);
        for (const st of s.steps) for (const e of st.entries) expect(surprise.surprised[e.combatant]).toBe(0);
        for (const c of enc.combatants) {
          if (surprise.surprised[c.id] === 0) expect(entriesOf(s, c.id).length).toBe(expectedEntries(c, declarations[c.id], 1));
        }
        const log = playSchedule(P, enc, s, initialStates(enc), [], options);
        for (const st of log.steps) for (const e of st.entries) if (e.outcome === 'acts') expect(surprise.surprised[e.entry.combatant]).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('whole combats run without crashing and are deterministic', () => {
    fc.assert(
      fc.property(arbEncounter, ({ enc, declarations, options, seed, damage }) => {
        const run = () =>
          playCombat(P, enc, options, new RandomDice(seed), {
            rounds: 3,
            declarations: () => declarations,
            damage: damage.map((d, i) => ({ ...d, round: 1 + (i % 3) })),
          });
        const a = run();
        expect(run()).toEqual(a);
        for (const r of a.rounds) for (const c of r.carryOut) expect(c.remaining % 10).toBe(0);
      }),
      { numRuns: 60 },
    );
  });
});

/* ===================================================== planning at scale */

describe('planning large rounds gives the same order as small ones', () => {
  it('II.E: a pair that fights each other is found after many attackers who do not', () => {
    const spear = { name: 'spear', speed: 6, length: 8 };
    const sword = { name: 'sword', speed: 5, length: 3.5 };
    const crowd = Array.from({ length: 200 }, (_, i) => who(i % 2 ? 'raiders' : 'party', { weapon: sword }));
    const knight = who('raiders', { weapon: sword });
    const guard = pc('party', { weapon: spear });
    const enc = encounter([...crowd, knight, guard]);
    // Each of the crowd attacks the next one, who attacks someone else: no pairs among them.
    const d = declMap(
      ...crowd.map((c, i) => melee(c, crowd[(i + 1) % crowd.length].id)),
      { combatant: knight.id, action: 'charge', target: guard.id },
      melee(guard, knight.id),
    );
    const { schedule } = planned(enc, d, [ini('party', 9), ini('raiders', 2)]);
    const g = stepOf(schedule, guard.id);
    expect(g).toBe(stepOf(schedule, knight.id) - 1);
    expect(schedule.steps[g].entries.map((e) => e.combatant)).toEqual([guard.id]);
    expect(schedule.steps[g].count).toBe(2);
    expect(entriesOf(schedule, guard.id)[0].reason).toBe(REASONS.longerWeapon);
    for (const c of crowd) expect(entriesOf(schedule, c.id)[0].reason).toBeUndefined();
  });

  it('many distinct counts (fractional dexterity adjustments) come lowest first, each step listing its combatants in encounter order', () => {
    const people = Array.from({ length: 60 }, (_, i) => who(i % 3 ? 'raiders' : 'party', { initiativeAdjustment: ((i * 7) % 30) / 10 }));
    const enc = encounter(people);
    const d = declMap(...people.map((c, i) => (i % 4 === 3 ? spell(c, 1 + (i % 5)) : melee(c, people[(i + 1) % people.length].id))));
    const { schedule } = planned(enc, d, [ini('party', 6), ini('raiders', 4)]);
    const counts = schedule.steps.map((st) => st.count as number);
    expect(new Set(counts).size).toBeGreaterThan(16);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1]);
    const position = new Map(people.map((c, i) => [c.id, i]));
    for (const st of schedule.steps) {
      const order = st.entries.map((e) => position.get(e.combatant) as number);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    for (const cast of schedule.castings) {
      const begin = schedule.steps[cast.beginStep];
      const complete = schedule.steps[cast.completeStep as number];
      expect((complete.count as number) - (begin.count as number)).toBeCloseTo(cast.castingTime);
    }
  });
});

/* ============================================================ performance */

describe('scale', () => {
  it('plans a round of 10,000 combatants (its speed: npm run bench, plan.*)', () => {
    const combatants: Combatant[] = [];
    const declarations: Record<string, Declaration> = {};
    for (let i = 0; i < 10000; i++) {
      const c: Combatant = {
        id: `c${i}`,
        name: `c${i}`,
        side: i % 2 ? 'a' : 'b',
        hp: 5,
        kind: i % 3 ? 'monster' : 'character',
        initiativeAdjustment: i % 5,
        weapon: { speed: i % 10, length: i % 7 },
        className: i % 4 ? undefined : 'fighter',
        level: 1 + (i % 15),
      };
      combatants.push(c);
      const kinds: ActionKind[] = ['melee', 'charge', 'missile', 'spell', 'flee'];
      const action = kinds[i % kinds.length];
      declarations[c.id] = { combatant: c.id, action, target: `c${(i + 1) % 10000}`, castingTime: action === 'spell' ? 1 + (i % 12) : undefined };
    }
    const enc: Encounter = { sides: [{ id: 'a', name: 'a' }, { id: 'b', name: 'b' }], combatants };
    const o = opts({ tieWeaponSpeed: true, tieMoreAttacks: true, tieSpellVsMelee: true, tieMissileVsSpell: true, initiativeMode: 'individual' });
    const dice: Dice = new RandomDice(7);
    const inp = input(enc, declarations, 2);
    const s = P.planRound(enc, inp, P.rollInitiative(enc, inp, dice, o), o);
    expect(s.steps.length).toBeGreaterThan(0);
  });
});

describe('d12-ascending: bleeding option (text silent; README rules notes)', () => {
  // The seed gives no dying rule ("Death": nothing); a table playing dead at -10 may
  // bleed the dying 1 hp a round: an option, off by default.
  const sides = [
    { id: 'p', name: 'P' },
    { id: 'm', name: 'M' },
  ];
  const combatants = [
    { id: 'a', name: 'A', side: 'p', hp: 5, className: 'fighter', level: 1, weapon: { speed: 5, length: 3 } },
    { id: 'b', name: 'B', side: 'm', hp: 5, weapon: { speed: 5, length: 3 } },
  ];
  const play = (options: Record<string, unknown>) =>
    playCombat(P as never, { sides, combatants }, { ...P.defaults, ...options } as never, new RandomDice(5), {
      rounds: 3,
      declarations: (round): Record<string, Declaration> => (round === 1 ? { b: { combatant: 'b', action: 'melee', target: 'a' } } : {}),
      damage: [{ round: 1, by: 'b', target: 'a', amount: 7 }],
    });

  it('dead at -10 and 1 a round: a combatant at -2 bleeds a point a round while dying', () => {
    const log = play({ deathAt: -10, bleedPerRound: 1 });
    expect(log.rounds.map((r) => r.states.a.hp)).toEqual([-3, -4, -5]);
    expect(log.rounds[0].end?.events).toEqual([{ kind: 'bleed', combatant: 'a', amount: 1 }]);
  });

  it('off by default; with death at 0 nobody is dying to bleed', () => {
    expect(play({ deathAt: -10 }).states.a.hp).toBe(-2);
    expect(play({ bleedPerRound: 1 }).states.a).toMatchObject({ hp: -2, condition: 'dead' });
  });
});

/* ============ II.C "A spellcaster may decide on his initiative result what spell to cast, if any" */

const hero = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', kind: 'character', hp: 12, ...extra });
const orcNamed = (id: string, extra: Partial<Combatant> = {}): Combatant => ({
  id,
  name: id[0].toUpperCase() + id.slice(1),
  side: 'orcs',
  kind: 'monster',
  hp: 10,
  weapon: { name: 'spear', speed: 6, length: 8 },
  ...extra,
});
/** A d12 combat nobody is surprised in (12s); round 1's dice for the party and the orcs, then any more. */
function d12Flow(people: Combatant[], party: number, orcs: number, options: Record<string, boolean | number | string> = {}, more: ScriptedRoll[] = []) {
  return F.start('d12-ascending', F.encounter(...people), [F.surprise('party', 12), F.surprise('orcs', 12), F.init('party', 1, party), F.init('orcs', 1, orcs), ...more], options);
}
/** "decide on his initiative result what spell to cast": a spell declared without naming it. */
const castLater = (c: string, extra: Partial<Declaration> = {}): Declaration => ({ combatant: c, action: 'spell', ...extra });
const chooseIt = (c: string, spell: string | null, castingTime?: number) =>
  spell === null ? ({ t: 'choose', c, spell: null } as const) : ({ t: 'choose', c, spell, castingTime } as const);
const shape = (state: FlowState) => state.schedule?.steps.map((s) => [s.count ?? s.phase, s.entries.map((e) => `${e.combatant}:${e.kind}`)]);

describe('II.C the spell chosen on the initiative result (the `choose` input)', () => {
  const wren = () => hero('wren', { spells: ['Sleep', 'Fireball'] });

  it('"decide on his initiative result": declared without a spell, its turn shows "choosing"; chosen then, it begins at S and goes off at S + casting time', () => {
    expect(isChoosing(castLater('wren'))).toBe(true);
    expect(isChoosing(castLater('wren', { spell: 'Sleep', castingTime: 1 }))).toBe(false);
    expect(P.validateDeclaration(castLater('wren'), wren(), opts())).toBeNull();
    // A spell named without its casting time is still refused: only the whole choice can wait.
    expect(P.validateDeclaration(castLater('wren', { spell: 'Sleep' }), wren(), opts())?.key).toBe('CastingTimeInvalid');

    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 5, 3);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    // Nothing is planned past its turn yet: the casting ends at its own step until it is chosen.
    expect(shape(state)).toEqual([
      [3, ['orc:action']],
      [5, ['wren:cast-begin']],
    ]);
    expect(state.schedule?.castings).toEqual([expect.objectContaining({ caster: 'wren', choosing: true, spell: '', castingTime: 0, beginStep: 1, completeStep: 1, expends: false })]);
    F.expectRefused(state, chooseIt('wren', 'Sleep', 2), 'ChooseSpellNotYet');

    F.give(state, { t: 'next' });
    expect(timeline(state).steps[1].entries[0]).toMatchObject({ kind: 'cast-begin', choosing: true, outcome: 'begins' });
    expect(timeline(state).steps[1].entries[0].spell).toBeUndefined();
    const played = structuredClone(state.schedule?.steps.slice(0, 2));
    const outcomes = structuredClone(state.outcomes);

    F.give(state, chooseIt('wren', 'Sleep', 2));
    // The steps played keep their places; the completion comes at 5 + 2.
    expect(state.schedule?.steps.slice(0, 2)).toEqual(played);
    expect(state.outcomes).toEqual(outcomes);
    expect(state.step).toBe(1);
    expect(shape(state)).toEqual([
      [3, ['orc:action']],
      [5, ['wren:cast-begin']],
      [7, ['wren:cast-complete']],
    ]);
    const cast = state.schedule?.castings[0];
    expect(cast).toMatchObject({ spell: 'Sleep', castingTime: 2, beginStep: 1, completeStep: 2, lossFrom: 1, preventFrom: 0, expends: true, remaining: 0 });
    expect(cast && 'choosing' in cast).toBe(false);
    const view = timeline(state);
    expect(view.steps[1].entries[0]).toMatchObject({ spell: 'Sleep', castingTime: 2, outcome: 'begins' });
    expect(view.steps[1].entries[0].choosing).toBeUndefined();
    expect(view.steps[2].entries[0]).toMatchObject({ kind: 'cast-complete', spell: 'Sleep' });
    F.expectRefused(state, chooseIt('wren', 'Fireball', 1), 'ChooseSpellNothing');

    F.give(state, { t: 'next' });
    expect(state.outcomes[2]).toEqual(['goes-off']);
    expect(state.states.wren.expended).toEqual(['Sleep']);
  });

  it('the other side sees someone casting, never whether the spell is still to be chosen', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 3, 5);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    const theirs = timeline(state, { gm: false, sides: ['orcs'] }).steps[0].entries[0];
    expect(theirs).toMatchObject({ combatant: 'wren', kind: 'cast-begin' });
    expect(theirs.choosing).toBeUndefined();
    expect(timeline(state, { gm: false, sides: ['party'] }).steps[0].entries[0].choosing).toBe(true);
  });

  it('"on his initiative result": its turn passed without a choice, the chance is gone; nothing carries into the next round', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 3, 5);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    F.give(state, { t: 'next' });
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'ChooseSpellPassed');
    expect(timeline(state).steps[0].entries[0]).toMatchObject({ choosing: true, outcome: 'begins' });
    F.finishRound(state);
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'ChooseSpellPassed');
    expect(state.carry).toEqual([]);
    expect(state.states.wren.expended).toEqual([]);
  });

  it('refusals name the reason and change nothing', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc'), hero('bran')], 3, 5);
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'ChooseSpellNothing');
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'declare', d: castLater('bran', { spell: 'Light', castingTime: 1 }) });
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'ChooseSpellNotYet');
    F.expectRefused(state, chooseIt('bran', 'Light', 1), 'ChooseSpellNothing');
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    for (const t of [0, 101, 2.5, undefined]) F.expectRefused(state, chooseIt('wren', 'Sleep', t), 'CastingTimeInvalid');
    F.expectRefused(state, chooseIt('wren', 'Light', 1), 'SpellNotMemorized');
    F.expectRefused(state, chooseIt('bran', 'Light', 1), 'ChooseSpellNothing');
    F.expectRefused(state, chooseIt('nobody', 'Sleep', 1), 'UnknownCombatant');
    for (const bad of [{ t: 'choose', c: 'wren', spell: '  ' }, { t: 'choose', c: 7, spell: 'Sleep', castingTime: 1 }, { t: 'choose', c: 'wren', spell: null, castingTime: 2 }, { t: 'choose', c: 'wren', spell: 'Sleep', castingTime: '2' }]) {
      F.expectRefused(state, bad, 'MalformedRequest');
    }
  });

  it('a spell with no copy left in memory cannot be chosen ("removed from the caster\'s memorized list")', () => {
    const { state, dice } = d12Flow([hero('wren', { spells: ['Sleep'] }), orcNamed('orc')], 3, 5, {}, [F.init('party', 2, 3), F.init('orcs', 2, 5)]);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.d('orc', 'none') } }, dice);
    F.give(state, chooseIt('wren', 'Sleep', 1));
    F.finishRound(state);
    expect(state.states.wren.expended).toEqual(['Sleep']);
    F.give(state, { t: 'next' });
    // "Same as last round": she declares again that she will cast, and chooses at her turn.
    expect(state.declarations.wren).toEqual(castLater('wren'));
    F.give(state, { t: 'next' }, dice);
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'SpellNotMemorized');
  });

  it('"what spell to cast, if any": choosing none ends the casting, nothing expended; "same as last round" leaves the choice open again', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 3, 5, {}, [F.init('party', 2, 4), F.init('orcs', 2, 5)]);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    const id = state.schedule?.castings[0].id as string;
    F.give(state, chooseIt('wren', null));
    expect(state.status[id]).toBe('cancelled');
    expect(state.cancelled).toEqual([id]);
    expect(state.outcomes[0]).toEqual(['cancelled']);
    expect(timeline(state).steps[0].entries[0]).toMatchObject({ choosing: true, outcome: 'cancelled' });
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'ChooseSpellNothing');
    F.finishRound(state);
    expect(state.states.wren.expended).toEqual([]);
    F.give(state, { t: 'next' });
    F.give(state, { t: 'next' }, dice);
    expect(state.schedule?.castings).toEqual([expect.objectContaining({ caster: 'wren', choosing: true, beganRound: 2 })]);
    F.give(state, chooseIt('wren', 'Fireball', 3));
    expect(shape(state)).toEqual([
      [4, ['wren:cast-begin']],
      [5, ['orc:action']],
      [7, ['wren:cast-complete']],
    ]);
  });

  it('II.D "Any damage taken before completing a spell in that round prevents any/all spell completion": struck before its turn, no spell can be chosen; the spells are kept', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 5, 3);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    const hit = F.give(state, { t: 'hit', target: 'wren', amount: 2, by: 'orc' });
    expect(hit.interruptions).toEqual([expect.objectContaining({ caster: 'wren', outcome: 'prevented', expended: false })]);
    F.give(state, { t: 'next' });
    F.expectRefused(state, chooseIt('wren', 'Sleep', 2), 'ChooseSpellPrevented');
    // The GM's undo of the interruption gives the choice back.
    F.give(state, { t: 'restore', casting: state.schedule?.castings[0].id as string });
    F.give(state, chooseIt('wren', 'Sleep', 2));
    expect(state.outcomes[1]).toEqual(['begins']);
    expect(state.states.wren.expended).toEqual([]);
  });

  it('II.D: a blow in the caster\'s own step lands before a spell not yet chosen (prevented) or on the spell chosen ("struck while actually casting": lost and expended)', () => {
    const before = d12Flow([wren(), orcNamed('orc')], 4, 4);
    F.give(before.state, { t: 'declare', d: castLater('wren') });
    F.give(before.state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, before.dice);
    expect(F.give(before.state, { t: 'hit', target: 'wren', amount: 2, by: 'orc' }).interruptions).toEqual([]);
    F.expectRefused(before.state, chooseIt('wren', 'Sleep', 2), 'ChooseSpellPrevented');

    const after = d12Flow([wren(), orcNamed('orc')], 4, 4);
    F.give(after.state, { t: 'declare', d: castLater('wren') });
    F.give(after.state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, after.dice);
    F.give(after.state, chooseIt('wren', 'Sleep', 2));
    expect(F.give(after.state, { t: 'hit', target: 'wren', amount: 2, by: 'orc' }).interruptions).toEqual([
      expect.objectContaining({ spell: 'Sleep', outcome: 'interrupted', expended: true }),
    ]);
    expect(after.state.states.wren.expended).toEqual(['Sleep']);
  });

  it('README "Simultaneous actions": a blow at the count the chosen spell goes off does not stop it', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 2, 5);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    F.give(state, chooseIt('wren', 'Sleep', 3));
    F.give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].entries.map((e) => e.combatant)).toEqual(['orc', 'wren']);
    expect(F.give(state, { t: 'hit', target: 'wren', amount: 2, by: 'orc' }).interruptions).toEqual([]);
    expect(state.outcomes[state.step]).toEqual(['acts', 'goes-off']);
  });

  it('II.C "Spells needing a full round to cast are resolved last in the round"; longer ones carry into the next round', () => {
    const full = d12Flow([wren(), orcNamed('orc'), orcNamed('gob')], 2, 5);
    F.give(full.state, { t: 'declare', d: castLater('wren') });
    F.give(full.state, { t: 'begin', d: { orc: F.melee('orc', 'wren'), gob: F.d('gob', 'flee') } }, full.dice);
    F.give(full.state, chooseIt('wren', 'Fireball', 10));
    expect(shape(full.state)).toEqual([
      [2, ['wren:cast-begin']],
      [5, ['orc:action']],
      [PHASE_WITHDRAWAL, ['gob:action']],
      [PHASE_FULL_ROUND, ['wren:cast-complete']],
    ]);
    expect(full.state.schedule?.castings[0]).toMatchObject({ completeStep: 3, remaining: 0 });
    expect(full.state.schedule?.steps[3].entries[0].reason).toBe(REASONS.fullRound);

    const long = d12Flow([wren(), orcNamed('orc')], 2, 5, {}, [F.init('party', 2, 6), F.init('orcs', 2, 5)]);
    F.give(long.state, { t: 'declare', d: castLater('wren') });
    F.give(long.state, { t: 'begin', d: { orc: F.d('orc', 'none') } }, long.dice);
    F.give(long.state, chooseIt('wren', 'Fireball', 15));
    expect(long.state.schedule?.castings[0]).toMatchObject({ completeStep: null, remaining: 10 });
    expect(long.state.schedule?.carryOut).toHaveLength(1);
    F.finishRound(long.state);
    F.give(long.state, { t: 'next' });
    F.give(long.state, { t: 'begin', d: { wren: F.d('wren', 'none') } }, long.dice);
    F.finishRound(long.state);
    expect(long.state.states.wren.expended).toEqual(['Fireball']);
  });

  it('a spell chosen to run past the round is not begun again by "same as last round": it goes off last in the next', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 2, 5, {}, [F.init('party', 2, 6), F.init('orcs', 2, 5)]);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.d('orc', 'none') } }, dice);
    F.give(state, chooseIt('wren', 'Fireball', 15));
    F.finishRound(state);
    F.give(state, { t: 'next' });
    expect(state.declarations.wren).toEqual(castLater('wren'));
    F.give(state, { t: 'next' }, dice);
    expect(state.schedule?.castings.filter((c) => c.choosing)).toEqual([]);
    expect(shape(state)).toEqual([[PHASE_FULL_ROUND, ['wren:cast-complete']]]);
    F.finishRound(state);
    expect(state.states.wren.expended).toEqual(['Fireball']);
  });

  it('II.F "Ties are just that – simultaneous results": chosen to go off at a count where others act, it joins their step', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('orc')], 2, 5);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    F.give(state, chooseIt('wren', 'Sleep', 3));
    expect(shape(state)).toEqual([
      [2, ['wren:cast-begin']],
      [5, ['orc:action', 'wren:cast-complete']],
    ]);
  });

  it('RULING (II.G "Ties between spell completion and a melee strike go to whichever is lower of the casting time or WSF"): a spell chosen on the initiative result cannot win a tie on casting time', () => {
    const play = (decl: Declaration, choice?: number) => {
      const { state, dice } = d12Flow([wren(), orcNamed('orc')], 2, 5, { tieSpellVsMelee: true });
      F.give(state, { t: 'declare', d: decl });
      F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
      if (choice !== undefined) F.give(state, chooseIt('wren', 'Sleep', choice));
      return state;
    };
    // Named in the declaration, casting time 3 beats the spear's WSF 6.
    expect(shape(play(castLater('wren', { spell: 'Sleep', castingTime: 3 })))).toEqual([
      [2, ['wren:cast-begin']],
      [5, ['wren:cast-complete']],
      [5, ['orc:action']],
    ]);
    // Chosen at the turn: the strike planned at 5 keeps its place, the spell after it.
    const late = play(castLater('wren'), 3);
    expect(shape(late)).toEqual([
      [2, ['wren:cast-begin']],
      [5, ['orc:action']],
      [5, ['wren:cast-complete']],
    ]);
    expect(late.schedule?.steps[2].entries[0].reason).toBe(REASONS.chosenAfterTies);
    expect(late.schedule?.castings[0].completeStep).toBe(2);
  });

  it('RULING (II.G "Ties between missile fire and spell completion go to the missile if spell casting time is actually higher than initiative die result"): chosen late, the spell goes after the missile', () => {
    const { state, dice } = d12Flow([wren(), orcNamed('archer', { weapon: { name: 'bow', missile: true, rate: 1 } })], 4, 6, { tieMissileVsSpell: true });
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { archer: F.d('archer', 'missile', { target: 'wren' }) } }, dice);
    F.give(state, chooseIt('wren', 'Sleep', 2));
    expect(shape(state)).toEqual([
      [4, ['wren:cast-begin']],
      [6, ['archer:action']],
      [6, ['wren:cast-complete']],
    ]);
  });

  it('I.D the surprise round (no counts shown, "highest surprise die roll first"): the chosen spell goes off at the place + casting time among the others', () => {
    const play = (t: number) => {
      const people = [wren(), hero('bran', { weapon: { name: 'sword', speed: 5, length: 3 } }), orcNamed('orc')];
      const { state, dice } = F.start('d12-ascending', F.encounter(...people), [
        { purpose: 'surprise', combatant: 'wren', round: 0, result: 11 },
        { purpose: 'surprise', combatant: 'bran', round: 0, result: 6 },
        F.surprise('orcs', 3),
      ], { initiativeMode: 'individual' });
      expect(state.round).toBe(0);
      F.give(state, { t: 'declare', d: castLater('wren') });
      F.give(state, { t: 'declare', d: F.melee('bran', 'orc') });
      F.give(state, { t: 'next' }, dice);
      F.give(state, chooseIt('wren', 'Sleep', t));
      return shape(state);
    };
    // Wren's place is 13 − 11 = 2, Bran's 13 − 6 = 7.
    expect(play(2)).toEqual([
      [PHASE_SURPRISE, ['wren:cast-begin']],
      [PHASE_SURPRISE, ['wren:cast-complete']],
      [PHASE_SURPRISE, ['bran:action']],
    ]);
    expect(play(5)).toEqual([
      [PHASE_SURPRISE, ['wren:cast-begin']],
      [PHASE_SURPRISE, ['bran:action', 'wren:cast-complete']],
    ]);
    expect(play(6)).toEqual([
      [PHASE_SURPRISE, ['wren:cast-begin']],
      [PHASE_SURPRISE, ['bran:action']],
      [PHASE_SURPRISE, ['wren:cast-complete']],
    ]);
  });

  it('III.C "Casting while in melee range also draws an AoO": only once the spell is chosen, and not when none is', () => {
    const run = (choice: string | null) => {
      const { state, dice } = d12Flow([wren(), orcNamed('orc')], 3, 9);
      F.give(state, { t: 'declare', d: castLater('wren') });
      F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
      F.expectRefused(state, { t: 'attack', c: 'orc', target: 'wren' }, 'AttackNotYourStep');
      F.give(state, chooseIt('wren', choice, choice === null ? undefined : 1));
      return state;
    };
    expect(F.give(run('Sleep'), { t: 'attack', c: 'orc', target: 'wren' }).attack?.as).toBe('opportunity');
    F.expectRefused(run(null), { t: 'attack', c: 'orc', target: 'wren' }, 'AttackNotYourStep');
  });

  it('RULING (late joiners act on their side\'s result): a joiner who will cast chooses at its turn', () => {
    const { state, dice } = d12Flow([orcNamed('orc'), hero('bran')], 5, 3);
    F.give(state, { t: 'declare', d: F.d('bran', 'none') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'bran') } }, dice);
    F.give(state, { t: 'join', c: wren(), d: castLater('wren') });
    F.give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step]).toMatchObject({ count: 5, entries: [expect.objectContaining({ combatant: 'wren', kind: 'cast-begin' })] });
    F.give(state, chooseIt('wren', 'Sleep', 1));
    expect(shape(state)?.at(-1)).toEqual([6, ['wren:cast-complete']]);
  });

  it('other procedures plan no such casting: a choice is refused', () => {
    const { state, dice } = F.start('segment-d6', F.encounter(wren(), orcNamed('orc')), [F.surprise('party', 6), F.surprise('orcs', 6), F.init('party', 1, 3), F.init('orcs', 1, 4)]);
    expect(P.validateDeclaration(castLater('wren'), wren(), opts())).toBeNull();
    F.expectRefused(state, { t: 'declare', d: castLater('wren') }, 'CastingTimeInvalid');
    F.give(state, { t: 'declare', d: castLater('wren', { spell: 'Sleep', castingTime: 1 }) });
    F.give(state, { t: 'next' }, dice);
    F.expectRefused(state, chooseIt('wren', 'Sleep', 1), 'ChooseSpellNothing');
  });
});

/* ===== "the DM can still make such a check in any way he sees fit"; "Player characters never check morale" */

describe('morale: a check the GM calls, by a method of their choosing', () => {
  const people = () => [hero('hale'), orcNamed('orc', { morale: 40 }), orcNamed('gob')];
  /** Dice that record what they are asked for and answer from a list. */
  const asked = (results: number[]) => {
    const requests: { count: number; faces: number; combatant?: string }[] = [];
    const dice: Dice = {
      roll(r) {
        requests.push({ count: r.count, faces: r.faces, combatant: r.combatant });
        const next = results.shift();
        if (next === undefined) throw new Error('no die expected');
        return next;
      },
    };
    return { dice, requests };
  };
  const end = (requests: NonNullable<Parameters<typeof P.endOfRound>[1]['moraleRequests']>, results: number[], o = opts(), after?: Record<string, CombatantState>) => {
    const enc = encounter(people());
    const st = initialStates(enc);
    const d = asked(results);
    return { ...P.endOfRound(enc, { round: 1, before: st, after: after ?? st, hits: [], moraleRequests: requests }, d.dice, o), requests: d.requests };
  };

  it('default (README): a d100 at or under the monster\'s morale score holds; over it, it breaks and routs', () => {
    expect(P.defaults.moraleMethod).toBe('d100');
    const holds = end([{ combatant: 'orc', trigger: 'leader-died' }], [40]);
    expect(holds.events).toEqual([{ kind: 'morale', combatant: 'orc', trigger: 'leader-died', roll: 40, total: 40, target: 40, passed: true, method: 'd100' }]);
    expect(holds.states.orc.routed).toBeUndefined();
    expect(holds.requests).toEqual([{ count: 1, faces: 100, combatant: 'orc' }]);
    const breaks = end([{ combatant: 'orc', trigger: 'leader-died' }], [41]);
    expect(breaks.events[0]).toMatchObject({ passed: false, roll: 41, target: 40 });
    expect(breaks.states.orc.routed).toBe(true);
  });

  it('"adjusted for circumstances as he sees fit": the method and score of the call (2d6, d20), `opposed` taken off the score', () => {
    const twoD6 = end([{ combatant: 'gob', trigger: 'gm', method: '2d6', score: 7 }], [8]);
    expect(twoD6.requests).toEqual([{ count: 2, faces: 6, combatant: 'gob' }]);
    expect(twoD6.events[0]).toMatchObject({ method: '2d6', roll: 8, target: 7, passed: false });
    const d20 = end([{ combatant: 'orc', trigger: 'gm', method: 'd20', score: 12, opposed: 2 }], [10]);
    expect(d20.requests).toEqual([{ count: 1, faces: 20, combatant: 'orc' }]);
    expect(d20.events[0]).toMatchObject({ method: 'd20', roll: 10, target: 10, passed: true });
    // The option sets the method when the call names none.
    expect(end([{ combatant: 'orc', trigger: 'gm', score: 9 }], [9], opts({ moraleMethod: '2d6' })).requests).toEqual([{ count: 2, faces: 6, combatant: 'orc' }]);
  });

  it('"in any way he sees fit": the GM\'s own result, no die', () => {
    const r = end([{ combatant: 'gob', trigger: 'gm', method: 'gm', passed: false }], []);
    expect(r.events).toEqual([{ kind: 'morale', combatant: 'gob', trigger: 'gm', roll: 0, total: 0, target: 0, passed: false, method: 'gm' }]);
    expect(r.states.gob.routed).toBe(true);
    expect(end([{ combatant: 'gob', trigger: 'gm', score: 0 }], [], opts({ moraleMethod: 'gm' })).events).toEqual([]);
  });

  it('"perhaps at least require a morale check for PC\'s to see if they successfully rally": a rally that holds ends the rout', () => {
    const enc = encounter(people());
    const routed = { ...initialStates(enc), hale: { hp: 12, condition: 'ok' as const, expended: [], routed: true } };
    const r = end([{ combatant: 'hale', trigger: MORALE_RALLY, method: '2d6', score: 8 }], [6], opts(), routed);
    expect(r.states.hale.routed).toBe(false);
    const failed = end([{ combatant: 'hale', trigger: MORALE_RALLY, method: 'gm', passed: false }], [], opts(), routed);
    expect(failed.states.hale.routed).toBe(true);
  });

  it('through the flow: called during the round, checked at once (issue 28: "the DM can still make such a check in any way he sees fit"); a failed check marks the combatant routed', () => {
    const { state, dice } = d12Flow(people(), 3, 5, {}, [{ purpose: 'morale', combatant: 'orc', result: 77 }]);
    F.give(state, { t: 'declare', d: F.melee('hale', 'orc') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'hale') } }, dice);
    F.give(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'leader-died' }] }, dice);
    expect(state.morale).toEqual([expect.objectContaining({ kind: 'morale', combatant: 'orc', roll: 77, target: 40, passed: false, stage: 'resolve', step: 0 })]);
    expect(timeline(state).combatants.find((c) => c.id === 'orc')).toMatchObject({ routed: true, morale: 'broke' });
    expect(state.moraleRequests).toEqual([]);
    // The end of the round checks nothing again.
    F.finishRound(state, dice);
    expect(state.end).toEqual([]);
  });

  it('refused with the reason, nothing changed: "Player characters never check morale", no score to roll against, the GM\'s result missing, an unknown method', () => {
    const { state, dice } = d12Flow(people(), 3, 5);
    F.give(state, { t: 'declare', d: F.melee('hale', 'orc') });
    F.give(state, { t: 'begin' }, dice);
    F.expectRefused(state, { t: 'morale', requests: [{ combatant: 'hale', trigger: 'gm' }] }, 'D12MoraleCharacter');
    // All or nothing: a list with one refused check queues none.
    F.expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'gm' }, { combatant: 'hale', trigger: 'gm' }] }, 'D12MoraleCharacter');
    F.expectRefused(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'gm' }] }, 'MoraleScoreMissing');
    F.expectRefused(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'gm', method: 'gm' }] }, 'MoraleResultMissing');
    F.expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'gm', method: '3d6' }] }, 'MoraleMethodInvalid');
    F.expectRefused(state, { t: 'morale', requests: [{ combatant: 'orc', trigger: 'gm', score: 'high' }] }, 'NumberInvalid');
    F.give(state, { t: 'morale', requests: [{ combatant: 'hale', trigger: MORALE_RALLY, method: 'gm', passed: true }] });
    expect(state.morale).toEqual([expect.objectContaining({ combatant: 'hale', trigger: MORALE_RALLY, method: 'gm', passed: true })]);
  });

  it('a combat stored before the GM\'s morale check (no moraleMethod in its start) keeps the old rule: calls are taken and ignored', () => {
    const { state, dice } = d12Flow(people(), 3, 5);
    const { moraleMethod: _, ...old } = state.options;
    state.options = old;
    F.give(state, { t: 'begin' }, dice);
    F.give(state, { t: 'morale', requests: [{ combatant: 'hale', trigger: 'gm' }, { combatant: 'gob', trigger: 'gm' }] });
    F.finishRound(state);
    expect(state.end).toEqual([]);
  });
});

/* ================ III.E "Spellcasters lose dexterity AC bonus only while actually casting" */

describe('III.E "Spellcasters lose dexterity AC bonus only while actually casting"', () => {
  it('the AC without the Dexterity bonus; a penalty is no bonus; the -10..10 scale holds', () => {
    expect(armorClassWhileCasting(5, 2)).toBe(7);
    expect(armorClassWhileCasting(-3, 4)).toBe(1);
    expect(armorClassWhileCasting(5, -1)).toBe(5);
    expect(armorClassWhileCasting(5, undefined)).toBe(5);
    expect(armorClassWhileCasting(9, 3)).toBe(10);
  });

  const mage = () => hero('wren', { spells: ['Sleep', 'Fireball'], dexterityAcBonus: 2 });
  const acOf = (state: FlowState) => armorClassNow(state, 'wren', 5);

  it('"only while actually casting": from the step the spell begins until it goes off', () => {
    const { state, dice } = d12Flow([mage(), orcNamed('orc'), orcNamed('gob')], 3, 1, {}, []);
    F.give(state, { t: 'declare', d: castLater('wren', { spell: 'Sleep', castingTime: 3 }) });
    expect(acOf(state)).toEqual({ ac: 5, casting: false });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren'), gob: F.d('gob', 'flee') } }, dice);
    // count 1: the orc, before she begins
    expect(acOf(state)).toEqual({ ac: 5, casting: false });
    F.give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].count).toBe(3);
    expect(acOf(state)).toEqual({ ac: 7, casting: true });
    expect(castingNow(state, 'wren')?.spell).toBe('Sleep');
    F.give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].count).toBe(6); // it goes off
    expect(acOf(state)).toEqual({ ac: 5, casting: false });
  });

  it('a spell still to be chosen is not being cast; chosen, it is; stopped, it is not', () => {
    const { state, dice } = d12Flow([mage(), orcNamed('orc')], 3, 5);
    F.give(state, { t: 'declare', d: castLater('wren') });
    F.give(state, { t: 'begin', d: { orc: F.melee('orc', 'wren') } }, dice);
    expect(acOf(state).ac).toBe(5);
    F.give(state, chooseIt('wren', 'Sleep', 4));
    expect(acOf(state).ac).toBe(7);
    F.give(state, { t: 'next' });
    expect(acOf(state).ac).toBe(7);
    F.give(state, { t: 'hit', target: 'wren', amount: 1, by: 'orc' });
    expect(acOf(state)).toEqual({ ac: 5, casting: false });
  });

  it('a spell of several rounds is cast through the end of the round and the next declarations; a device is no spellcasting', () => {
    const { state, dice } = d12Flow([mage(), orcNamed('orc')], 3, 5, {}, [F.init('party', 2, 3), F.init('orcs', 2, 5)]);
    F.give(state, { t: 'declare', d: castLater('wren', { spell: 'Fireball', castingTime: 15 }) });
    F.give(state, { t: 'begin', d: { orc: F.d('orc', 'none') } }, dice);
    F.finishRound(state);
    expect(acOf(state).ac).toBe(7);
    F.give(state, { t: 'next' });
    expect(state.stage).toBe('declare');
    expect(acOf(state).ac).toBe(7);

    const device = d12Flow([mage(), orcNamed('orc')], 3, 5);
    F.give(device.state, { t: 'declare', d: castLater('wren', { action: 'device', spell: 'wand', castingTime: 3 }) });
    F.give(device.state, { t: 'begin', d: { orc: F.d('orc', 'none') } }, device.dice);
    expect(acOf(device.state).ac).toBe(5);
  });

  it('only under d12-ascending: another procedure\'s caster keeps its AC', () => {
    const { state, dice } = F.start('segment-d6', F.encounter(mage(), orcNamed('orc')), [F.surprise('party', 6), F.surprise('orcs', 6), F.init('party', 1, 4), F.init('orcs', 1, 3)]);
    F.give(state, { t: 'declare', d: castLater('wren', { spell: 'Sleep', castingTime: 5 }) });
    F.give(state, { t: 'next' }, dice);
    expect(castingNow(state, 'wren')).not.toBeNull();
    expect(armorClassNow(state, 'wren', 5)).toEqual({ ac: 5, casting: false });
  });
});
