/**
 * A combatant removed and added again (Foundry gives it a new id): `join`
 * with `was` names the one that left, and the joiner takes it over — its
 * surprise, its base initiative (seed 003: rolled "at the beginning of
 * combat" and "does not change during the whole combat"), what it still had
 * to do in the round under way — without a new roll and without being a late
 * joiner. A `join` without `was` is a late joiner as before.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedDice } from '../../src/rules/dice';
import { currentActors, entryKey, FlowLog, RecordingDice, replay, type FlowInput, type FlowState, type KeyedLog, type LogEntry } from '../../src/rules/flow';
import type { Combatant } from '../../src/rules/model';
import { base, d, encounter, expectRefused, finishRound, give, init, melee, NO_DICE, playTo, start, stepOf, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });

describe('individual-speed: "the character\'s Base Initiative Score" is rolled once per combat', () => {
  const people = () => encounter(pc('fighter', { woundPoints: 10, strength: 10 }), pc('mage', { woundPoints: 10, strength: 10 }), foe('ghoul', { woundPoints: 10, strength: 10 }));
  const speed = (more: Parameters<typeof start>[2] = []) => start('individual-speed', people(), [base('fighter', 3), base('mage', 8), base('ghoul', 6), ...more]);

  it('taken over while declaring: its base is kept, no die is rolled; a plain joiner "immediately roll[s] Initiative"', () => {
    const { state, dice } = speed([base('fighter2', 11)]);
    give(state, { t: 'leave', c: 'fighter' });
    give(state, { t: 'join', c: pc('fighter-again', { woundPoints: 10, strength: 10 }), was: 'fighter' }, NO_DICE);
    expect(state.baseInitiative['fighter-again']).toBe(3);
    expect(state.takenOver).toEqual({ fighter: 'fighter-again' });
    give(state, { t: 'declare', d: melee('fighter-again', 'ghoul') });
    give(state, { t: 'begin' });
    expect(state.schedule?.steps.map((s) => [s.count, s.entries.map((e) => e.combatant)])).toEqual([[3, ['fighter-again']]]);
    // Without `was`, a new combatant rolls its own base.
    give(state, { t: 'join', c: pc('fighter2') }, dice);
    expect(state.baseInitiative.fighter2).toBe(11);
  });

  it('taken over mid-round: no late joiner ("acts during the next round with an addition -12 modifier" is for newcomers): it acts where the one that left was to act', () => {
    const { state, dice } = speed([base('late', 1)]);
    give(state, { t: 'declare', d: melee('fighter', 'ghoul') });
    give(state, { t: 'declare', d: melee('mage', 'ghoul') });
    give(state, { t: 'begin', d: { ghoul: melee('ghoul', 'mage') } });
    expect(state.schedule?.steps.map((s) => s.count)).toEqual([3, 6, 8]);
    give(state, { t: 'next' }); // count 6
    give(state, { t: 'leave', c: 'mage' });
    give(state, { t: 'join', c: pc('mage-again', { woundPoints: 10, strength: 10 }), was: 'mage', d: melee('mage-again', 'ghoul') }, NO_DICE);
    expect(state.joins).toEqual([]);
    expect(state.owed).toEqual({});
    expect(state.baseInitiative['mage-again']).toBe(8);
    // Steps played stay as they were; the mage's count 8 is now the joiner's.
    expect(state.schedule?.steps[2].entries.map((e) => e.combatant)).toEqual(['mage-again']);
    give(state, { t: 'next' });
    expect(currentActors(state)).toEqual(['mage-again']);
    // A plain late joiner whose count has passed: a base of its own and an action owed next round at -12.
    give(state, { t: 'join', c: foe('late'), d: melee('late', 'fighter') }, dice);
    expect(state.joins).toEqual([{ combatant: 'late', step: 2 }]);
    expect(state.owed).toEqual({ late: 1 - 12 });
    // Taken over in its turn, the joiner takes the action owed with it.
    give(state, { t: 'leave', c: 'late' });
    give(state, { t: 'join', c: foe('late-again'), was: 'late', d: melee('late-again', 'fighter') }, NO_DICE);
    expect(state.owed).toEqual({ 'late-again': 1 - 12 });
    expect(state.baseInitiative['late-again']).toBe(1);
    finishRound(state, dice);
    give(state, { t: 'next' });
    give(state, { t: 'begin' });
    expect(state.schedule?.steps[0]).toMatchObject({ count: -11, entries: [expect.objectContaining({ combatant: 'late-again', kind: 'late-join' })] });
  });

  it('"surprised creatures still roll their Initiative ... but do not get to act in that round": the surprise is taken over with the base', () => {
    const enc = people();
    enc.sides = enc.sides.map((s) => (s.id === 'party' ? { ...s, surprised: true } : s));
    const { state } = start('individual-speed', enc, [base('fighter', 3), base('mage', 8), base('ghoul', 6)]);
    expect(state.surprise.surprised).toMatchObject({ fighter: 1, mage: 1, ghoul: 0 });
    give(state, { t: 'leave', c: 'fighter' });
    give(state, { t: 'join', c: pc('fighter-again'), was: 'fighter', d: melee('fighter-again', 'ghoul') });
    expect(state.surprise.surprised['fighter-again']).toBe(1);
    give(state, { t: 'begin', d: { ghoul: melee('ghoul', 'mage') } });
    expect(stepOf(state, 'fighter-again')).toBe(-1);
  });
});

describe('segment-d6: "Surprise is checked only once per combat"', () => {
  const people = () => encounter(pc('fighter'), pc('mage', { spells: ['Sleep'] }), foe('orc'), foe('orc2'));

  it('the surprise segments of the one that left are the joiner\'s; a plain joiner is not surprised', () => {
    const { state, dice } = start('segment-d6', people(), [surprise('party', 2), surprise('foes', 5)]);
    expect(state.surprise.surprised).toMatchObject({ fighter: 2, orc: 0 });
    give(state, { t: 'leave', c: 'fighter' });
    give(state, { t: 'join', c: pc('fighter-again'), was: 'fighter', d: melee('fighter-again', 'orc') });
    give(state, { t: 'join', c: pc('squire'), d: melee('squire', 'orc') });
    expect(state.surprise.surprised).toMatchObject({ 'fighter-again': 2, squire: 0 });
    // Back under its own id: the same.
    give(state, { t: 'leave', c: 'mage' });
    give(state, { t: 'join', c: pc('mage', { spells: ['Sleep'] }), was: 'mage' });
    expect(state.surprise.surprised.mage).toBe(2);
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter-again') } }, dice);
    // "the monsters ... have both of those 2 surprise segments in which to act"
    expect(state.schedule?.steps.map((s) => s.entries.map((e) => e.combatant).sort())).toEqual([
      ['orc', 'squire'],
      ['orc', 'squire'],
    ]);
  });

  it('a spell under way is the joiner\'s to finish: "Halvaine\'s spell will go off in the sixth segment"', () => {
    const { state, dice } = start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 2, target: 'orc' }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([4, 5, 6]);
    give(state, { t: 'leave', c: 'mage' });
    give(state, { t: 'join', c: pc('mage-again', { spells: ['Sleep'] }), was: 'mage' });
    expect(state.schedule?.castings.map((c) => c.caster)).toEqual(['mage-again']);
    playTo(state, 2);
    expect(currentActors(state)).toEqual(['mage-again']);
    finishRound(state);
    expect(state.states['mage-again'].expended).toEqual(['Sleep']);
    expect(state.states.mage.expended).toEqual([]);
  });
});

describe('high-low: surprised combatants lose round 1, and so does one taken over', () => {
  it('the surprise state is taken over', () => {
    const { state, dice } = start('high-low', encounter(pc('fighter'), foe('orc')), [surprise('party', 1), surprise('foes', 5), init('foes', 1, 3)]);
    give(state, { t: 'leave', c: 'fighter' });
    give(state, { t: 'join', c: pc('fighter-again'), was: 'fighter', d: melee('fighter-again', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter-again') } }, dice);
    expect(stepOf(state, 'fighter-again')).toBe(-1);
    expect(stepOf(state, 'orc')).toBe(0);
  });
});

describe('refused: a `was` that has not left, or was already taken over', () => {
  it('JoinWasNotLeft, JoinWasTakenOver, MalformedRequest — nothing changed', () => {
    const { state } = start('addict', encounter(pc('fighter'), pc('mage'), foe('gob')), [surprise('party', 5), surprise('foes', 5)]);
    expectRefused(state, { t: 'join', c: pc('fighter-again'), was: 'fighter' }, 'JoinWasNotLeft');
    expectRefused(state, { t: 'join', c: pc('fighter-again'), was: 'nobody' }, 'JoinWasNotLeft');
    expectRefused(state, { t: 'join', c: pc('fighter-again'), was: 7 }, 'MalformedRequest');
    give(state, { t: 'leave', c: 'fighter' });
    give(state, { t: 'join', c: pc('fighter-again'), was: 'fighter' });
    expectRefused(state, { t: 'join', c: pc('fighter-3'), was: 'fighter' }, 'JoinWasTakenOver');
    // The joiner itself may leave and be taken over in its turn.
    give(state, { t: 'leave', c: 'fighter-again' });
    give(state, { t: 'join', c: pc('fighter-3'), was: 'fighter-again' });
    expect(state.takenOver).toEqual({ fighter: 'fighter-again', 'fighter-again': 'fighter-3' });
  });
});

describe('the log: a combat with join and was replays to the same state, every time', () => {
  it('replayed at once, entry by entry, and again', () => {
    const rolls = [base('fighter', 3), base('ghoul', 6)];
    const started = start('individual-speed', encounter(pc('fighter', { woundPoints: 10, strength: 10 }), foe('ghoul', { woundPoints: 10, strength: 10 })), rolls);
    const dice = new ScriptedDice([base('late', 2)]);
    const entries: LogEntry[] = [];
    // The start entry as the Combat stores it (flow/log.ts): startCombat's result, rebuilt from the first state.
    const s0 = started.state;
    // Everyone starts able to fight: no starting condition to record.
    entries.push({ t: 'start', v: s0.v, s: { procedure: s0.procedure, options: s0.options, encounter: s0.encounter, surprise: s0.surprise, baseInitiative: s0.baseInitiative, round: s0.round, rules: s0.rules, conditions: {} } });
    const state: FlowState = structuredClone(s0);
    const play = (input: FlowInput) => {
      const recording = new RecordingDice(dice);
      give(state, input, recording);
      entries.push(JSON.parse(JSON.stringify(recording.totals.length > 0 ? { ...input, r: recording.totals } : input)) as LogEntry);
    };
    play({ t: 'declare', d: melee('fighter', 'ghoul') });
    play({ t: 'begin', d: { ghoul: melee('ghoul', 'fighter') } });
    play({ t: 'leave', c: 'ghoul' });
    play({ t: 'join', c: foe('ghoul-again', { woundPoints: 10, strength: 10 }), was: 'ghoul', d: melee('ghoul-again', 'fighter') });
    play({ t: 'join', c: foe('late', { woundPoints: 10, strength: 10 }), d: melee('late', 'fighter') });
    play({ t: 'next' });
    play({ t: 'attack', c: 'ghoul-again', target: 'fighter' });
    const keyed: KeyedLog = Object.fromEntries(entries.map((e, i) => [entryKey(i), e]));
    const once = replay(keyed);
    expect(once.problems).toEqual([]);
    expect(once.state).toStrictEqual(state);
    expect(replay(keyed).state).toStrictEqual(state);
    const log = new FlowLog();
    const pairs = entries.map((e, i) => [entryKey(i), e] as [string, LogEntry]);
    for (let k = 1; k <= pairs.length; k++) log.read(pairs.slice(0, k));
    expect(log.read(pairs).state).toStrictEqual(state);
    expect(state.baseInitiative).toMatchObject({ ghoul: 6, 'ghoul-again': 6, late: 2 });
  });
});

/*
 * Rules revision 4 (issue 26; RULING, README rules notes "A combatant who comes back"): a combatant removed
 * from the tracker and added again is the same combatant. It keeps what the fight knew of it: the condition it
 * left in, its declaration, its initiative, this round's attacks, moves and mid-round actions; it may finish the
 * step it left in. A combat started under revision 3 replays as it always did.
 */
describe('revision 4: one who comes back is the same combatant', () => {
  const people = () => encounter(pc('fighter', { hp: 3 }), pc('mage'), foe('orc'), foe('orc2'));
  const d6 = () => start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)], { deathRule: 'minus-ten', bleedPerRound: 1 });

  it('a dying fighter taken off the tracker mid-round and added back still bleeds at the end of the round (deathRule minus-ten: below 0 it loses bleedPerRound a round)', () => {
    const { state, dice } = d6();
    expect(state.rules).toBeGreaterThanOrEqual(4);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'mage') } }, dice);
    give(state, { t: 'hit', target: 'fighter', amount: 5, by: 'orc' });
    expect(state.states.fighter).toMatchObject({ hp: -2, condition: 'incapacitated' });
    give(state, { t: 'leave', c: 'fighter' });
    expect(state.states.fighter.condition).toBe('fled');
    // Added back: the engine is told its hit points as the sheet has them.
    give(state, { t: 'join', c: pc('fighter-again', { hp: -2 }), was: 'fighter' });
    expect(state.states['fighter-again']).toMatchObject({ hp: -2, condition: 'incapacitated' });
    finishRound(state, dice);
    expect(state.states['fighter-again'].hp).toBe(-3);
    expect(state.end).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'bleed', combatant: 'fighter-again', amount: 1 })]));
  });

  it('its declaration, its morale (routed) and its initiative come back with it; revision 3 forgot them', () => {
    for (const rules of [4, 3] as const) {
      const { state } = d6();
      state.rules = rules;
      give(state, { t: 'declare', d: melee('orc', 'mage') });
      state.states.orc = { ...state.states.orc, routed: true };
      give(state, { t: 'leave', c: 'orc' });
      give(state, { t: 'join', c: foe('orc-again'), was: 'orc' });
      if (rules === 4) {
        expect(state.declarations['orc-again']).toEqual(melee('orc-again', 'mage'));
        expect(state.states['orc-again'].routed).toBe(true);
      } else {
        expect(state.declarations['orc-again']).toBeUndefined();
        expect(state.states['orc-again'].routed).toBeUndefined();
      }
    }
  });

  it('the attacks it made this round are its own: back in the same step it may not strike again; one that had not struck may finish its step', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'declare', d: melee('mage', 'orc2') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'mage') } }, dice);
    // Segment 4: the party acts (the foes' die 4).
    expect(currentActors(state).sort()).toEqual(['fighter', 'mage']);
    give(state, { t: 'attack', c: 'fighter', target: 'orc' });
    for (const who of ['fighter', 'mage']) {
      give(state, { t: 'leave', c: who });
      give(state, { t: 'join', c: pc(`${who}-again`), was: who });
    }
    expectRefused(state, { t: 'attack', c: 'fighter-again', target: 'orc' }, 'NoAttackLeft');
    give(state, { t: 'attack', c: 'mage-again', target: 'orc2' });
    expectRefused(state, { t: 'attack', c: 'mage-again', target: 'orc2' }, 'NoAttackLeft');
    expect(state.attacks?.map((a) => a.c)).toEqual(['fighter-again', 'mage-again']);
  });
});
