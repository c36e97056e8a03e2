/**
 * A held (segment-d6) or prepared (addict) action released in any segment of
 * the round, not only where something else is scheduled (flow/held.ts `stop`
 * and `holdSteps`): the GM stops at an empty segment, and a hold declared
 * "release at segment N" makes that step.
 *
 * Seed 000: "some combatants might 'hold' (choose to delay) their actions,
 * waiting to act until these later segments"; "the remaining four segments
 * are still important because spells and other actions might occur in them".
 * Seed 004, "Preparing actions": a prepared action "becomes prepared at the
 * time it would normally resolve. Then, it's triggered when the case defined
 * by the player's declaration occurs". RULING (README "Rules notes"): the GM
 * may stop at any later segment of the round as an empty step.
 */
import { describe, expect, it } from 'vitest';
import { attackProblem, entryKey, midRoundProblem, replay, type FlowState, type KeyedLog } from '../../src/rules/flow';
import type { Combatant } from '../../src/rules/model';
import { playCombat } from '../../src/rules/play';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { ScriptedDice } from '../../src/rules/dice';
import { entryProblem } from '../../src/data/combat-log';
import { d, encounter, expectRefused, finishRound, give, init, melee, start, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });
const steps = (state: FlowState) => state.schedule?.steps.map((s) => [s.segment, s.entries.map((e) => `${e.combatant}:${e.action}`)]);
const people = () => encounter(pc('fighter', { weapon: { name: 'Sword' } }), pc('mage', { spells: ['Sleep'] }), foe('orc'), foe('gob'));

describe('segment-d6 (seed 000): a held action "waiting to act until these later segments" — any of them', () => {
  /** Party 5, foes 4: the party acts in segment 4, the foes in 5; nothing is scheduled in 6–10. */
  const d6 = () => start('segment-d6', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);

  it('the GM stops at segment 8, where nothing is scheduled, and the held attack is released there', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    give(state, { t: 'next' });
    expect(steps(state)).toEqual([[4, ['fighter:wait']], [5, ['orc:melee']]]);
    // Asking changes nothing; the stop makes an empty step after the one being played.
    const asked = structuredClone(state);
    expect(midRoundProblem(state, { t: 'stop', seg: 8 })).toBeNull();
    expect(state).toStrictEqual(asked);
    give(state, { t: 'stop', seg: 8 });
    expect(steps(state)).toEqual([[4, ['fighter:wait']], [5, ['orc:melee']], [8, []]]);
    expect(state.step).toBe(1);
    give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].segment).toBe(8);
    give(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') });
    expect(attackProblem(state, { t: 'attack', c: 'fighter', target: 'orc' })).toBeNull();
    expect(give(state, { t: 'attack', c: 'fighter', target: 'orc' }).attack?.as).toBe('schedule');
  });

  it('refused in words: a segment played or being played, past the round, one that already has a step, outside a round', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('fighter', 'wait') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expectRefused(state, { t: 'stop', seg: 4 }, 'StopPassed');
    expectRefused(state, { t: 'stop', seg: 2 }, 'StopPassed');
    expectRefused(state, { t: 'stop', seg: 5 }, 'StopHasStep');
    expectRefused(state, { t: 'stop', seg: 11 }, 'StopPastRound');
    expectRefused(state, { t: 'stop', seg: 7.5 }, 'MalformedRequest');
    expectRefused(state, { t: 'stop' }, 'MalformedRequest');
    finishRound(state);
    expectRefused(state, { t: 'stop', seg: 9 }, 'StopOutsideRound');
  });

  it('a hold declared "release at segment 9" makes that step; the release is still the holder\'s choice there', () => {
    const { state, dice } = d6();
    give(state, { t: 'declare', d: d('fighter', 'wait', { releaseAt: 9 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(steps(state)).toEqual([[4, ['fighter:wait']], [5, ['orc:melee']], [9, ['fighter:wait']]]);
    expect(state.schedule?.steps[2].entries[0].reason).toBe('ReleaseAt');
    give(state, { t: 'next' });
    // Not forced at 9: the holder may still release in segment 5 …
    expect(midRoundProblem(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') })).toBeNull();
    give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].segment).toBe(9);
    // … or, as declared, at 9.
    give(state, { t: 'release', c: 'fighter', d: melee('fighter', 'orc') });
    expect(give(state, { t: 'attack', c: 'fighter', target: 'orc' }).attack?.as).toBe('schedule');
  });

  it('"release at segment 5" joins the step already there; one at or before the hold makes none', () => {
    const joined = d6();
    give(joined.state, { t: 'declare', d: d('fighter', 'wait', { releaseAt: 5 }) });
    give(joined.state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, joined.dice);
    expect(steps(joined.state)).toEqual([[4, ['fighter:wait']], [5, ['orc:melee', 'fighter:wait']]]);
    const none = d6();
    give(none.state, { t: 'declare', d: d('fighter', 'wait', { releaseAt: 4 }) });
    give(none.state, { t: 'begin' }, none.dice);
    expect(steps(none.state)).toEqual([[4, ['fighter:wait']]]);
  });

  it('"release at" belongs to a hold, segments 1–10', () => {
    const { state } = d6();
    expectRefused(state, { t: 'declare', d: d('fighter', 'wait', { releaseAt: 0 }) }, 'ReleaseAtInvalid');
    expectRefused(state, { t: 'declare', d: d('fighter', 'wait', { releaseAt: 11 }) }, 'ReleaseAtInvalid');
    expectRefused(state, { t: 'declare', d: d('fighter', 'wait', { releaseAt: 2.5 }) }, 'ReleaseAtInvalid');
    expectRefused(state, { t: 'declare', d: melee('fighter', 'orc', { releaseAt: 6 }) }, 'ReleaseAtNotHeld');
  });
});

describe('addict (seed 004, "Preparing actions"): a prepared action triggered in a segment where nothing else happens', () => {
  const addict = () => start('addict', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)]);

  it('the GM stops at segment 9; a spell begun there with 3 segments carries into the next round', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: d('mage', 'wait') });
    give(state, { t: 'begin', d: { gob: melee('gob', 'fighter') } }, dice);
    expect(state.schedule?.steps.map((s) => s.segment)).toEqual([2, 5]);
    give(state, { t: 'next' });
    give(state, { t: 'stop', seg: 9 });
    give(state, { t: 'next' });
    expect(state.schedule?.steps[state.step].segment).toBe(9);
    give(state, { t: 'release', c: 'mage', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    expect(state.schedule?.castings[0]).toMatchObject({ caster: 'mage', completeStep: null, remaining: 2 });
  });

  it('"release at segment 7" makes a step in segment 7', () => {
    const { state, dice } = addict();
    give(state, { t: 'declare', d: d('mage', 'wait', { releaseAt: 7 }) });
    give(state, { t: 'begin', d: { gob: melee('gob', 'fighter') } }, dice);
    expect(steps(state)).toEqual([[2, ['mage:wait']], [5, ['gob:melee']], [7, ['mage:wait']]]);
  });

  it('high-low holds nothing: no stop at an empty segment', () => {
    const hl = start('high-low', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);
    give(hl.state, { t: 'declare', d: d('fighter', 'other') });
    give(hl.state, { t: 'begin' }, hl.dice);
    expectRefused(hl.state, { t: 'stop', seg: 9 }, 'StopNotInProcedure');
  });
});

describe('the runner stops where a scripted release needs it, and the log replays it', () => {
  it('segment-d6: a release scripted at segment 8, with nothing else there, happens, and the log replays to the same state', () => {
    const played = playCombat(
      PROCEDURES['segment-d6'],
      people(),
      {},
      new ScriptedDice([surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]),
      {
        rounds: 1,
        declarations: () => ({ fighter: d('fighter', 'wait'), orc: melee('orc', 'fighter') }),
        releases: [{ round: 1, combatant: 'fighter', segment: 8, declaration: melee('fighter', 'orc') }],
      },
    );
    expect(played.notDone).toEqual([]);
    expect(played.entries.map((e) => e.t)).toEqual(expect.arrayContaining(['stop', 'release']));
    for (const e of played.entries) expect(entryProblem(e), e.t).toBeNull();
    const keyed: KeyedLog = Object.fromEntries(played.entries.map((e, i) => [entryKey(i), e]));
    const { state, problems } = replay(keyed);
    expect(problems).toEqual([]);
    expect(state).toStrictEqual(played.state);
  });
});
