/**
 * The condition a combatant enters a combat in (at the start of a scenario or
 * a Foundry combat, or joining one): its hit points (Wound Points) decide it
 * by the procedure's own damage rules, not "dead at 0 or below" everywhere;
 * a condition its hit points cannot tell (fled, stabilized below 0) may be
 * given (Combatant.condition), checked against them. A combat stored before
 * this was decided replays as it was (README, "Stored data" → "Engine versions").
 */
import { describe, expect, it } from 'vitest';
import { ScriptedDice } from '../../src/rules/dice';
import { replay, startCombat, type FlowState, type KeyedLog, type LogEntry } from '../../src/rules/flow';
import { entryKey, FLOW_VERSION, RULES_REVISION } from '../../src/rules/flow';
import type { Combatant, ProcedureId } from '../../src/rules/model';
import { base, encounter, expectRefused, finishRound, give, init, melee, start, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });

/** Dice for a combat with nobody surprised and one round of side initiative. */
const calm: Record<ProcedureId, ReturnType<typeof surprise>[]> = {
  'segment-d6': [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)],
  addict: [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)],
  'high-low': [surprise('party', 6), surprise('foes', 6), init('party', 1, 5), init('foes', 1, 2)],
  'd12-ascending': [surprise('party', 12), surprise('foes', 12), init('party', 1, 5), init('foes', 1, 2)],
  'individual-speed': [base('fighter', 3), base('hurt', 4), base('ogre', 5), { purpose: 'morale', result: 12 }, { purpose: 'morale', result: 12 }],
};

function combat(procedure: ProcedureId, hurt: Partial<Combatant>, options: Record<string, number | string | boolean> = {}) {
  const people = encounter(pc('fighter', { woundPoints: 10, strength: 10 }), pc('hurt', hurt), foe('ogre', { woundPoints: 10, strength: 10 }));
  return start(procedure, people, calm[procedure], options);
}

/** One round: the fighter and the ogre fight, `hurt` declares a melee if it may; played to the end of the round. */
function playRound(state: FlowState, dice: Parameters<typeof give>[2]) {
  give(state, { t: 'declare', d: melee('fighter', 'ogre') });
  give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter') } }, dice);
  finishRound(state, dice);
}

describe('a combatant starting at 0 hit points or below follows the procedure\'s own damage rules', () => {
  it('segment-d6 (deathRule "minus-ten": "unconscious (cannot act) from 0 to -9, dead at -10"): at -3 it is unconscious, not dead; it bleeds with bleedPerRound', () => {
    const { state, dice } = combat('segment-d6', { hp: -3 }, { deathRule: 'minus-ten', bleedPerRound: 1 });
    expect(state.states.hurt).toMatchObject({ hp: -3, condition: 'incapacitated' });
    expectRefused(state, { t: 'declare', d: melee('hurt', 'ogre') }, 'ActRefusedUnconscious');
    playRound(state, dice);
    expect(state.end).toContainEqual({ kind: 'bleed', combatant: 'hurt', amount: 1 });
    expect(state.states.hurt).toMatchObject({ hp: -4, condition: 'incapacitated' });
  });

  it('segment-d6 by default ("zero": dead at 0 hp) and at -10 under "minus-ten": dead', () => {
    expect(combat('segment-d6', { hp: 0 }).state.states.hurt.condition).toBe('dead');
    expect(combat('segment-d6', { hp: -10 }, { deathRule: 'minus-ten' }).state.states.hurt.condition).toBe('dead');
    expect(combat('segment-d6', { hp: -9 }, { deathRule: 'minus-ten' }).state.states.hurt.condition).toBe('incapacitated');
  });

  it.each(['high-low', 'd12-ascending'] as const)('%s (deathAt -10, bleedPerRound 1): at -3 it is dying and bleeds; at deathAt it is dead; by default (deathAt 0) 0 hp is dead', (procedure) => {
    const { state, dice } = combat(procedure, { hp: -3 }, { deathAt: -10, bleedPerRound: 1 });
    expect(state.states.hurt).toMatchObject({ hp: -3, condition: 'dying' });
    playRound(state, dice);
    expect(state.end).toContainEqual({ kind: 'bleed', combatant: 'hurt', amount: 1 });
    expect(state.states.hurt).toMatchObject({ hp: -4, condition: 'dying' });
    expect(combat(procedure, { hp: -10 }, { deathAt: -10 }).state.states.hurt.condition).toBe('dead');
    expect(combat(procedure, { hp: 0 }).state.states.hurt.condition).toBe('dead');
  });

  it('addict (phase 9: "Any combatants who had negative hit points at the start of the round lose 1 hit point. Anyone who hits -10 dies."): at -3 it bleeds, at -10 it is dead', () => {
    const { state, dice } = combat('addict', { hp: -3 });
    expect(state.states.hurt).toMatchObject({ hp: -3, condition: 'dying' });
    playRound(state, dice);
    expect(state.end).toContainEqual({ kind: 'bleed', combatant: 'hurt', amount: 1 });
    expect(state.states.hurt).toMatchObject({ hp: -4, condition: 'dying' });
    expect(combat('addict', { hp: -10 }).state.states.hurt.condition).toBe('dead');
  });

  it('individual-speed ("when a creature\'s current Wound Points reaches 0, the creature is Incapacitated"; below 0 "Dying"; dead at -Strength)', () => {
    const at0 = combat('individual-speed', { woundPoints: 0, strength: 12 });
    expect(at0.state.states.hurt).toMatchObject({ woundPoints: 0, condition: 'incapacitated' });
    // "an Incapacitated creature is conscious ... any other action it takes causes it to take 1 Wound Point of damage": it may act.
    give(at0.state, { t: 'declare', d: melee('hurt', 'ogre') });
    const dying = combat('individual-speed', { woundPoints: -2, strength: 12 });
    expect(dying.state.states.hurt).toMatchObject({ woundPoints: -2, condition: 'dying' });
    // "a Dying creature also automatically takes 1 Wound Point of damage at the end of every round"
    playRound(dying.state, dying.dice);
    expect(dying.state.states.hurt).toMatchObject({ woundPoints: -3, condition: 'dying' });
    expect(combat('individual-speed', { woundPoints: -12, strength: 12 }).state.states.hurt.condition).toBe('dead');
  });

  it('a combatant joining at 0 or below enters by the same rules (addict: dying at -3, and it bleeds)', () => {
    const { state, dice } = combat('addict', {});
    give(state, { t: 'join', c: foe('gob', { hp: -3 }) }, dice);
    expect(state.states.gob).toMatchObject({ hp: -3, condition: 'dying' });
    playRound(state, dice);
    expect(state.states.gob).toMatchObject({ hp: -4, condition: 'dying' });
  });
});

describe('a starting condition given where the hit points do not tell it (Combatant.condition)', () => {
  it('fled: it is not in the fight (not planned, cannot declare), whatever its hit points', () => {
    const { state, dice } = combat('segment-d6', { condition: 'fled' });
    expect(state.states.hurt).toMatchObject({ hp: 10, condition: 'fled' });
    expectRefused(state, { t: 'declare', d: melee('hurt', 'ogre') }, 'ActRefusedFled');
    playRound(state, dice);
    expect(state.states.hurt.condition).toBe('fled');
  });

  it('stabilized below 0 (unconscious, not dying): it does not bleed where the dying do (high-low, deathAt -10, bleedPerRound 1)', () => {
    const { state, dice } = combat('high-low', { hp: -3, condition: 'incapacitated' }, { deathAt: -10, bleedPerRound: 1 });
    expect(state.states.hurt).toMatchObject({ hp: -3, condition: 'incapacitated' });
    playRound(state, dice);
    expect(state.end?.some((e) => e.combatant === 'hurt')).toBe(false);
    expect(state.states.hurt).toMatchObject({ hp: -3, condition: 'incapacitated' });
  });

  it('a condition its hit points contradict is refused, nothing started: able to fight at -3, dying at 10, alive where the rules say dead', () => {
    const refused = (procedure: ProcedureId, hurt: Partial<Combatant>, options: Record<string, number | string> = {}) => {
      const done = startCombat(procedure, options, encounter(pc('fighter'), pc('hurt', hurt), foe('ogre')), new ScriptedDice(calm[procedure]));
      return done.ok ? null : done.problem;
    };
    expect(refused('addict', { hp: -3, condition: 'ok' })).toEqual({ key: 'StartingConditionImpossible', data: { name: 'Hurt', condition: 'ok', rule: 'dying' } });
    expect(refused('addict', { hp: 10, condition: 'dying' })).toEqual({ key: 'StartingConditionImpossible', data: { name: 'Hurt', condition: 'dying', rule: 'ok' } });
    expect(refused('segment-d6', { hp: 0, condition: 'incapacitated' })?.key).toBe('StartingConditionImpossible'); // "zero": dead at 0
    expect(refused('addict', { hp: -12, condition: 'dying' })?.key).toBe('StartingConditionImpossible');
    expect(refused('addict', { hp: 10, condition: 'sleeping' as Combatant['condition'] })).toEqual({ key: 'CombatantFieldInvalid', data: { name: 'Hurt', field: 'condition' } });
    // Dead or fled is the GM's word at any hit points.
    expect(refused('addict', { hp: 10, condition: 'dead' })).toBeNull();
  });

  it('a joiner whose condition contradicts its hit points is refused, nothing changed', () => {
    const { state, dice } = combat('addict', {});
    expectRefused(state, { t: 'join', c: foe('gob', { hp: -3, condition: 'ok' }) }, 'StartingConditionImpossible', dice);
    give(state, { t: 'join', c: foe('gob', { hp: 4, condition: 'fled' }) }, dice);
    expect(state.states.gob.condition).toBe('fled');
  });
});

describe('a combat stored before starting conditions followed the procedure replays as it was', () => {
  it('its start has no `rules` (nor `conditions`): 0 hp or below started dead, and a joiner at -3 joins dead (addict)', () => {
    const people = encounter(pc('fighter'), pc('hurt', { hp: -3 }), foe('ogre'));
    const entries: LogEntry[] = [
      // The start entry as the engine before wrote it: no `rules`, no `conditions`.
      { t: 'start', v: FLOW_VERSION, s: { procedure: 'addict', options: {}, encounter: people, surprise: { rolls: { party: 5, foes: 5 }, surprised: { fighter: 0, hurt: 0, ogre: 0 }, unit: 'segments' }, baseInitiative: {}, round: 1 } },
      { t: 'join', c: foe('gob', { hp: -3 }) },
    ];
    const keyed: KeyedLog = Object.fromEntries(entries.map((e, i) => [entryKey(i), e]));
    const { state, problems } = replay(keyed);
    expect(problems).toEqual([]);
    expect(state?.states.hurt.condition).toBe('dead');
    expect(state?.states.gob.condition).toBe('dead');
    expect(state?.rules).toBeUndefined();
  });

  it('a combat started now records them in its start, so every client replays the same conditions', () => {
    const started = startCombat('addict', {}, encounter(pc('fighter'), pc('hurt', { hp: -3 }), pc('away', { condition: 'fled' }), foe('ogre')), new ScriptedDice(calm.addict));
    if (!started.ok) throw new Error(JSON.stringify(started.problem));
    expect(started.start.conditions).toEqual({ hurt: 'dying', away: 'fled' });
    const { state } = replay({ [entryKey(0)]: { t: 'start', v: FLOW_VERSION, s: started.start } });
    expect(state?.states.hurt.condition).toBe('dying');
    expect(state?.states.away.condition).toBe('fled');
    expect(state?.rules).toBe(RULES_REVISION);
  });
});
