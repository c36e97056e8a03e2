/**
 * addict (seed 004): the phases whose tables the text does not give, so the GM
 * records their result (src/rules/flow/gm-phases.ts):
 *  - phase 1, "Otherwise, DM checks reaction for the opposing party" (the
 *    `reaction` input, before the first round);
 *  - phase 3, "Roll encounter distance" (the `distance` input, while a round
 *    is declared; a charge declared without a distance closes it);
 *  - phase 11, "If the combat has been resolved … bleeding can be staunched"
 *    (the `staunch` input, at the end of a round).
 * Each is refused with a Problem, nothing changed, where it does not apply,
 * and every one replays from the combat's log.
 */
import { describe, expect, it } from 'vitest';
import { applyInput, entryKey, FLOW_VERSION, RecordingDice, replay, startFlow, type FlowInput, type FlowStart, type LogEntry } from '../../src/rules/flow';
import { timeline } from '../../src/rules/timeline';
import { PROCEDURE_IDS, type Combatant } from '../../src/rules/model';
import { RandomDice, ScriptedDice, type ScriptedRoll } from '../../src/rules/dice';
import { d, encounter, expectRefused, finishRound, give, init, melee, start, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });
const people = () => encounter(pc('knight', { movement: 60, weapon: { length: 5 } }), pc('cleric'), foe('orc', { hp: 3 }), foe('gob'));
const noSurprise = [surprise('party', 5), surprise('foes', 5)];
const addict = (more: ScriptedRoll[] = []) => start('addict', people(), [...noSurprise, ...more]);

describe('phase 1: the reaction the GM records for a side ("If the DM has notes … those are used and no roll is made")', () => {
  it('is recorded in the GM\'s words with the roll made, replaced if recorded again, shown to players unless secret (footnote 3)', () => {
    const { state } = addict();
    give(state, { t: 'reaction', side: 'foes', result: '  Hostile, attacks at once ', roll: 4 });
    expect(state.encounter.reactions).toEqual({ foes: { result: 'Hostile, attacks at once', roll: 4 } });
    give(state, { t: 'reaction', side: 'foes', result: 'Uncertain', roll: 38, secret: true });
    give(state, { t: 'reaction', side: 'party', result: 'Wary' });
    expect(state.encounter.reactions).toEqual({ foes: { result: 'Uncertain', roll: 38, secret: true }, party: { result: 'Wary' } });
    // "If the opposing party's alignment is unknown to the players … the DM should roll this privately."
    expect(timeline(state).encounter?.reactions).toEqual([
      { side: 'party', result: 'Wary' },
      { side: 'foes', result: 'Uncertain', roll: 38, secret: true },
    ]);
    expect(timeline(state, { gm: false, sides: ['party'] }).encounter?.reactions).toEqual([{ side: 'party', result: 'Wary' }]);
  });

  it('is refused for an unknown side, a result that is no words, a roll that is no number', () => {
    const { state } = addict();
    expectRefused(state, { t: 'reaction', side: 'dragons', result: 'Hostile' }, 'UnknownSideId');
    expectRefused(state, { t: 'reaction', side: 'foes', result: '   ' }, 'ReactionResultInvalid');
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'x'.repeat(201) }, 'ReactionResultInvalid');
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile\u0000' }, 'ReactionResultInvalid');
    expectRefused(state, { t: 'reaction', side: 'foes', result: 7 }, 'ReactionResultInvalid');
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile', roll: Number.NaN }, 'ReactionRollInvalid');
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile', roll: '7' }, 'ReactionRollInvalid');
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile', secret: 'yes' }, 'MalformedRequest');
  });

  it('comes before the rounds: once round 1 is played it is over (PhaseOver); before it, with surprise segments to come, it is still open', () => {
    const { state, dice } = addict([init('party', 1, 3), init('foes', 1, 4)]);
    give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile' }, 'PhaseOver');
    finishRound(state);
    give(state, { t: 'next' });
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile' }, 'PhaseOver');
    // Surprise: round 0 is declared first; phase 1 is still open then.
    const surprised = start('addict', people(), [surprise('party', 2), surprise('foes', 5)]);
    expect(surprised.state.round).toBe(0);
    give(surprised.state, { t: 'reaction', side: 'foes', result: 'Hostile' });
  });

  it('phase 4.1, "certain reaction rolls may provoke a morale check right off the bat": the GM calls the opening morale after it', () => {
    const { state, dice } = addict([{ purpose: 'morale', combatant: 'gob', result: 90 }]);
    give(state, { t: 'reaction', side: 'foes', result: 'Hostile, but frightened', roll: 2 });
    give(state, { t: 'morale', requests: [{ combatant: 'gob', trigger: 'reaction' }] }, dice);
    expect(state.opening).toEqual([expect.objectContaining({ kind: 'morale', combatant: 'gob', trigger: 'reaction', passed: false })]);
  });
});

describe('phase 3: the encounter distance ("Roll encounter distance")', () => {
  it('is recorded in feet while a round is declared; a charge declared without a distance closes it (footnote 19)', () => {
    const { state, dice } = addict([init('party', 1, 1), init('foes', 1, 4)]);
    // No distance yet: a charge without one is refused.
    expectRefused(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc' }) }, 'AddictChargeNoDistance');
    give(state, { t: 'distance', feet: 34 });
    expect(state.encounter.distance).toBe(34);
    give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc' }) });
    give(state, { t: 'begin' }, dice);
    // 60 ft MV: 120 ft charging, 12 ft a segment; 29 ft to within 5 ft: three segments from segment 4 → segment 6.
    const step = state.schedule!.steps.find((s) => s.entries.some((e) => e.combatant === 'knight'))!;
    expect(step.segment).toBe(6);
    expect(timeline(state, { gm: false, sides: ['foes'] }).encounter?.distance).toBe(34);
  });

  it('is refused while the round is played, and when it is no number of feet (0 to 100,000)', () => {
    const { state, dice } = addict([init('party', 1, 1), init('foes', 1, 4)]);
    for (const feet of [-1, Number.NaN, Number.POSITIVE_INFINITY, 100001, '30']) expectRefused(state, { t: 'distance', feet }, 'DistanceInvalid');
    give(state, { t: 'distance', feet: 0 });
    give(state, { t: 'begin' }, dice);
    expectRefused(state, { t: 'distance', feet: 30 }, 'NotDeclaring');
  });

  it('stays recorded when combatants join or leave', () => {
    const { state } = addict();
    give(state, { t: 'distance', feet: 60 });
    give(state, { t: 'reaction', side: 'foes', result: 'Hostile' });
    give(state, { t: 'join', c: foe('wolf') });
    give(state, { t: 'leave', c: 'gob' });
    expect(state.encounter).toMatchObject({ distance: 60, reactions: { foes: { result: 'Hostile' } } });
  });
});

describe('phase 11: "bleeding can be staunched"', () => {
  /** Round 1: the orc is dropped to -4; its bleeding is staunched at the end of round 1 or 2. */
  function dropped() {
    const rolls = [init('party', 1, 5), init('foes', 1, 2), init('party', 2, 5), init('foes', 2, 2), init('party', 3, 5), init('foes', 3, 2)];
    const { state, dice } = addict(rolls);
    give(state, { t: 'begin', d: { knight: melee('knight', 'orc') } }, dice);
    give(state, { t: 'hit', target: 'orc', amount: 7, by: 'knight' });
    finishRound(state, dice);
    return { state, dice };
  }

  it('the GM staunches a bleeding combatant at the end of a round: phase 9 takes no more hit points from it', () => {
    const { state, dice } = dropped();
    expect(state.states.orc).toMatchObject({ hp: -4, condition: 'dying' }); // went below 0 this round: no bleeding yet
    give(state, { t: 'staunch', c: 'orc' });
    expect(state.states.orc.staunched).toBe(true);
    expect(timeline(state).combatants.find((c) => c.id === 'orc')?.staunched).toBe(true);
    give(state, { t: 'next' });
    give(state, { t: 'begin' }, dice);
    finishRound(state, dice);
    expect(state.end).toEqual([]);
    expect(state.states.orc.hp).toBe(-4);
  });

  it('unstaunched, "Any combatants who had negative hit points at the start of the round lose 1 hit point"', () => {
    const { state, dice } = dropped();
    give(state, { t: 'next' });
    give(state, { t: 'begin' }, dice);
    finishRound(state, dice);
    expect(state.states.orc.hp).toBe(-5);
  });

  it('is refused while a round is declared or played (recovery follows the end of a round), and for one not bleeding', () => {
    const { state, dice } = dropped();
    expectRefused(state, { t: 'staunch', c: 'knight' }, 'AddictNotBleeding');
    expectRefused(state, { t: 'staunch', c: 'dragon' }, 'UnknownCombatant');
    give(state, { t: 'staunch', c: 'orc' });
    expectRefused(state, { t: 'staunch', c: 'orc' }, 'AddictNotBleeding');
    give(state, { t: 'next' });
    expectRefused(state, { t: 'staunch', c: 'orc' }, 'StaunchNotNow');
    give(state, { t: 'begin' }, dice);
    expectRefused(state, { t: 'staunch', c: 'orc' }, 'StaunchNotNow');
  });
});

describe.each(PROCEDURE_IDS.filter((p) => p !== 'addict'))('%s has none of these phases', (procedure) => {
  it('refuses reaction, distance and staunch with PhaseNotInProcedure', () => {
    const started = startFlow(procedure, {}, people(), new RandomDice(7));
    if (!started.ok) throw new Error(started.problem.key);
    const state = started.state;
    expectRefused(state, { t: 'reaction', side: 'foes', result: 'Hostile' }, 'PhaseNotInProcedure');
    expectRefused(state, { t: 'distance', feet: 30 }, 'PhaseNotInProcedure');
    expectRefused(state, { t: 'staunch', c: 'orc' }, 'PhaseNotInProcedure');
  });
});

describe('the log is the whole combat', () => {
  it('reaction, distance and staunch replay to the same state', () => {
    const dice = new ScriptedDice([...noSurprise, init('party', 1, 5), init('foes', 1, 2)]);
    const started = startFlow('addict', {}, people(), dice);
    if (!started.ok) throw new Error(started.problem.key);
    const state = started.state;
    const entries: LogEntry[] = [{ t: 'start', v: FLOW_VERSION, s: started.detail as FlowStart }];
    const feed = (input: FlowInput) => {
      const recording = new RecordingDice(dice);
      const done = applyInput(state, input, recording);
      expect(done.ok, JSON.stringify(input)).toBe(true);
      entries.push(recording.totals.length > 0 ? { ...input, r: recording.totals } : input);
    };
    feed({ t: 'reaction', side: 'foes', result: 'Hostile', roll: 12, secret: true });
    feed({ t: 'distance', feet: 40 });
    feed({ t: 'begin', d: { knight: melee('knight', 'orc') } });
    feed({ t: 'hit', target: 'orc', amount: 6, by: 'knight' });
    while (state.stage === 'resolve') feed({ t: 'next' });
    feed({ t: 'staunch', c: 'orc' });
    const { state: replayed, problems } = replay(Object.fromEntries(entries.map((e, i) => [entryKey(i), e])));
    expect(problems).toEqual([]);
    expect(replayed).toStrictEqual(state);
    expect(replayed?.states.orc.staunched).toBe(true);
    expect(replayed?.encounter).toMatchObject({ distance: 40, reactions: { foes: { result: 'Hostile', roll: 12, secret: true } } });
  });
});
