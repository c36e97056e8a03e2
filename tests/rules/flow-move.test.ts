/**
 * Movement on the map during a round (issue 13): the `moved` input
 * (src/rules/flow/moved.ts) held to each procedure's movement rules
 * (Procedure.movement), its forfeits, and the attacks it provokes through the
 * ordinary `attack` input. Each test names the seed passage (seeds/000…004)
 * or the README ruling ("#### Movement on the map") it checks.
 */
import { describe, expect, it } from 'vitest';
import { RecordingDice } from '../../src/rules/flow/log-write';
import { applyInput, replay, startFlow, FLOW_VERSION, type FlowInput, type FlowState, type LogEntry } from '../../src/rules/flow';
import type { Combatant } from '../../src/rules/model';
import { ScriptedDice } from '../../src/rules/dice';
import { d, encounter, expectRefused, give, init, melee, NO_DICE, playTo, start, stepOf, surprise } from './flow-helpers';

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, movement: 120, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, movement: 120, ...extra });
const attack = (c: string, target: string) => ({ t: 'attack' as const, c, target });
const moved = (c: string, feet: number, extra: Partial<Extract<FlowInput, { t: 'moved' }>> = {}): FlowInput => ({ t: 'moved', c, feet, ...extra });
const near = (c: string, feet: number, startIn = true, endIn = true) => ({ c, feet, startIn, endIn });

/* ========================================================= d12-ascending */

describe('d12-ascending (seed 002): the standard rate, the 5\' step, attacks of opportunity', () => {
  const people = () => encounter(pc('fighter'), pc('mage', { spells: ['Sleep'] }), pc('hobbit', { small: true, movement: 90 }), foe('orc'), foe('gob'));
  /** Nobody surprised; the party rolls 3 (step 0), the foes 8 (step 1). */
  const d12 = (options: Record<string, boolean | number | string> = {}, people_ = people()) =>
    start('d12-ascending', people_, [surprise('party', 12), surprise('foes', 12), init('party', 1, 3), init('foes', 1, 8), init('party', 2, 3), init('foes', 2, 8)], { initiativeMode: 'group', ...options });

  it('moves are recorded only while a round is played (MoveNotDuringRound), and cleared when a round begins', () => {
    const { state, dice } = d12();
    expectRefused(state, moved('fighter', 5), 'MoveNotDuringRound');
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    const detail = give(state, moved('fighter', 20));
    expect(detail.moved).toEqual({ c: 'fighter', feet: 20, total: 20, allowance: 30, provoked: [] });
    expect(state.moves).toEqual([{ c: 'fighter', feet: 20, step: 0, allowance: 30, provoked: [] }]);
    expect(give(state, moved('fighter', 10)).moved?.total).toBe(30);
    expectRefused(state, { t: 'moved', c: 'fighter', feet: -5 }, 'MalformedRequest');
    expectRefused(state, { t: 'moved', c: 'fighter', feet: 5, ruling: 'maybe' }, 'MalformedRequest');
    expectRefused(state, moved('nobody', 5), 'UnknownCombatant');
    playTo(state, state.schedule!.steps.length);
    give(state, { t: 'next' }, dice); // end of the round
    expectRefused(state, moved('fighter', 5), 'MoveNotDuringRound');
    give(state, { t: 'next' }, dice); // next round's declarations
    expect(state.moves).toBeUndefined();
  });

  it('III.D "All characters may move their standard rate and still use their full attack routine ... Faster movement than that sacrifices any combat": 12" is six squares, 30 ft', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'declare', d: melee('hobbit', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), gob: d('gob', 'move') } }, dice);
    give(state, moved('fighter', 30));
    expectRefused(state, moved('fighter', 5), 'MoveBeyondAllowance');
    // "Smaller characters like halflings are limited to moving only 9” (four squares)": 20 ft.
    give(state, moved('hobbit', 20));
    expectRefused(state, moved('hobbit', 5), 'MoveBeyondAllowance');
    // A combatant moving and doing nothing else has no combat to sacrifice: "You can move further/faster, sometimes a lot more".
    expect(give(state, moved('gob', 90)).moved).toEqual({ c: 'gob', feet: 90, total: 90, provoked: [] });
    // The GM allows it: recorded as is.
    expect(give(state, moved('fighter', 10, { ruling: 'allow' })).moved?.total).toBe(40);
    expect(give(state, attack('fighter', 'orc')).attack?.as).toBe('schedule');
  });

  it('MoveBeyondAllowance names the mover, the feet this round, the allowance and why', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    const done = applyInput(state, moved('fighter', 35), dice);
    expect(done).toEqual({ ok: false, problem: { key: 'MoveBeyondAllowance', data: { name: 'Fighter', feet: 35, allowance: 30, why: 'standardRate' } } });
  });

  it('"Movement During the Round": the encumbrance table sets the rate (option on by default); off, its own rate', () => {
    const heavy = () => encounter(pc('fighter', { carried: 50 }), foe('orc'));
    const on = d12({}, heavy());
    give(on.state, { t: 'declare', d: melee('fighter', 'orc') });
    give(on.state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, on.dice);
    // 35# – 70#, heavy: 9” (4sq), 20 ft.
    expect(give(on.state, moved('fighter', 20)).moved?.allowance).toBe(20);
    expectRefused(on.state, moved('fighter', 5), 'MoveBeyondAllowance');
    const off = d12({ encumbrance: false }, heavy());
    give(off.state, { t: 'declare', d: melee('fighter', 'orc') });
    give(off.state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, off.dice);
    expect(give(off.state, moved('fighter', 30)).moved?.allowance).toBe(30);
  });

  it('ruling forfeit: "sacrifices any combat or casting" — later entries cannot act (movedForfeit), attacks refused, the casting under way broken (moved)', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage'), gob: melee('gob', 'mage') } }, dice);
    const casting = state.schedule!.castings[0];
    expect(state.status[casting.id]).toBe('pending');
    // The orc (count 8) runs 40 ft in the party's count and gives up its attack.
    const detail = give(state, moved('orc', 40, { ruling: 'forfeit' }));
    expect(detail.moved).toEqual({ c: 'orc', feet: 40, total: 40, allowance: 30, provoked: [] });
    expect(state.moves?.[0].ruling).toBe('forfeit');
    const orcStep = stepOf(state, 'orc');
    expect(state.schedule!.steps[orcStep].entries.find((e) => e.combatant === 'orc')?.reason).toBe('movedForfeit');
    playTo(state, orcStep);
    const i = state.schedule!.steps[orcStep].entries.findIndex((e) => e.combatant === 'orc');
    expect(state.outcomes[orcStep][i]).toBe('cannot-act');
    expectRefused(state, attack('orc', 'mage'), 'ActionForfeited');
    expect(give(state, attack('gob', 'mage')).attack?.as).toBe('schedule');
  });

  it('ruling forfeit breaks the mover\'s own casting under way with cause "moved" (the spell is lost)', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'mage') } }, dice);
    const casting = state.schedule!.castings[0];
    const detail = give(state, moved('mage', 40, { ruling: 'forfeit' }));
    expect(detail.interruptions).toEqual([
      { round: 1, step: 0, casting: casting.id, caster: 'mage', spell: 'Sleep', outcome: 'interrupted', expended: true, broken: 'moved' },
    ]);
    expect(state.status[casting.id]).toBe('interrupted');
    expect(state.states.mage.expended).toEqual(['Sleep']);
  });

  it('III.F "Moving more than 5’ while remaining within melee range of an opponent allows an Attack of Opportunity ... Generally only one AoO per round per character"', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), gob: melee('gob', 'fighter') } }, dice);
    // Not provoked yet: the orc has no attack now.
    expectRefused(state, attack('orc', 'fighter'), 'AttackNotYourStep');
    const detail = give(state, moved('fighter', 15, { reach: [near('orc', 10)] }));
    expect(detail.moved?.provoked).toEqual([{ by: 'orc', grant: 'opportunity', reason: 'd12AooMoving' }]);
    expect(give(state, attack('orc', 'fighter')).attack?.as).toBe('opportunity');
    expectRefused(state, attack('orc', 'fighter'), 'AttackOfOpportunityUsed');
    // An ally's range provokes nothing; an opponent provoked once is not provoked again this round.
    expect(give(state, moved('fighter', 10, { reach: [near('mage', 10), near('orc', 10)] })).moved?.provoked).toEqual([]);
  });

  it('"The 5’ Step": 5 feet as the only movement, before other actions, draws no AoO; a second move within range does', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), gob: melee('gob', 'fighter') } }, dice);
    expect(give(state, moved('fighter', 5, { reach: [near('orc', 5)] })).moved?.provoked).toEqual([]);
    // "This, however, assumes that this is your only movement for that round".
    expect(give(state, moved('fighter', 5, { reach: [near('orc', 5)] })).moved?.provoked).toEqual([{ by: 'orc', grant: 'opportunity', reason: 'd12AooMoving' }]);
  });

  it('after its attack, 5 feet within range that ends within it provokes; 5 feet backward out of range does not ("the first 5’ backward generally doesn\'t draw an AoO")', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'declare', d: melee('mage', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), gob: melee('gob', 'fighter') } }, dice);
    give(state, attack('fighter', 'gob'));
    expect(give(state, moved('fighter', 5, { reach: [near('gob', 5, true, false)] })).moved?.provoked).toEqual([]);
    give(state, attack('mage', 'gob'));
    expect(give(state, moved('mage', 5, { reach: [near('orc', 5, true, true)] })).moved?.provoked).toEqual([{ by: 'orc', grant: 'opportunity', reason: 'd12AooMoving' }]);
  });

  it('"Flee in panic ... Opponents may take an AoO at your back": a declared flee moving from an opponent\'s range provokes it, in a later step too', () => {
    const { state, dice } = d12();
    give(state, { t: 'declare', d: d('fighter', 'flee') });
    give(state, { t: 'begin', d: { orc: d('orc', 'other'), gob: melee('gob', 'mage') } }, dice);
    expect(give(state, moved('fighter', 5, { reach: [near('orc', 5, true, false)] })).moved?.provoked).toEqual([{ by: 'orc', grant: 'opportunity', reason: 'd12AooFleeing' }]);
    give(state, { t: 'next' });
    expect(give(state, attack('orc', 'fighter')).attack?.as).toBe('opportunity');
  });

  it('the surprised take no AoO (I.D "Surprise lasts 1 round")', () => {
    const { state, dice } = start('d12-ascending', people(), [surprise('party', 12), surprise('foes', 1), init('party', 1, 3), init('foes', 1, 8)], { initiativeMode: 'group' });
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), gob: melee('gob', 'fighter') } }, dice);
    give(state, moved('fighter', 15, { reach: [near('orc', 10)] }));
    expectRefused(state, attack('orc', 'fighter'), 'AttackerSurprised');
  });
});

/* ================================================================ high-low */

describe('high-low (seed 001): movement as the major action, positioning, concentration, free attacks on the fleeing', () => {
  const people = () => encounter(pc('fighter'), pc('mage', { spells: ['Sleep'] }), pc('thief'), foe('orc'), foe('gob'));
  const hl = () => start('high-low', people(), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 2)]);

  it('"Positioning movement of 10-ft. or less is a minor action but can only be done after a major action and cannot be done in melee"', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    playTo(state, stepOf(state, 'fighter'));
    expectRefused(state, moved('fighter', 5), 'MoveBeyondAllowance');
    expect(applyInput(structuredClone(state), moved('fighter', 5), NO_DICE)).toEqual({
      ok: false,
      problem: { key: 'MoveBeyondAllowance', data: { name: 'Fighter', feet: 5, allowance: 0, why: 'positioningBeforeAction' } },
    });
    give(state, attack('fighter', 'orc'));
    expectRefused(state, moved('fighter', 5, { reach: [near('orc', 5, true, false)] }), 'MoveBeyondAllowance');
    expect(give(state, moved('fighter', 10)).moved).toEqual({ c: 'fighter', feet: 10, total: 10, allowance: 10, provoked: [] });
    expectRefused(state, moved('fighter', 5), 'MoveBeyondAllowance');
  });

  it('"movement is otherwise normally a major action": a declared move covers the rate', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('thief', 'move') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(give(state, moved('thief', 120)).moved?.allowance).toBe(120);
    expectRefused(state, moved('thief', 5), 'MoveBeyondAllowance');
  });

  it('"A caster concentrating ... walking up to half their movement rate per round": half the rate while its casting is under way', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    const casting = state.schedule!.castings[0];
    playTo(state, casting.beginStep);
    expect(give(state, moved('mage', 60)).moved?.allowance).toBe(60);
    expectRefused(state, moved('mage', 5), 'MoveBeyondAllowance');
  });

  it('"a free attack will be granted ... (ex. Flee Melee)": leaving an opponent\'s melee range while fleeing draws its free attack, once', () => {
    const { state, dice } = hl();
    give(state, { t: 'declare', d: melee('thief', 'gob') });
    give(state, { t: 'declare', d: melee('fighter', 'gob') });
    give(state, { t: 'begin', d: { orc: d('orc', 'flee'), gob: melee('gob', 'thief') } }, dice);
    const detail = give(state, moved('orc', 30, { reach: [near('thief', 5, true, false), near('fighter', 5, true, true)] }));
    expect(detail.moved?.provoked).toEqual([{ by: 'thief', grant: 'free-attack', reason: 'highLowFleeFreeAttack' }]);
    playTo(state, state.schedule!.steps.length - 1);
    expect(give(state, attack('thief', 'orc')).attack?.as).toBe('free-attack');
    expectRefused(state, attack('thief', 'orc'), 'HighLowFreeAttackOnePerSegment');
  });
});

/* ======================================================== individual-speed */

describe('individual-speed (seed 003): Speed, half in Full-Defense', () => {
  it('"can only move up to a total distance equal to its speed"; "a character using Full-Defense can only move up to half their speed that round"', () => {
    const people = encounter(pc('fighter', { movement: 30 }), pc('guard', { movement: 30 }), foe('orc', { movement: 30 }));
    const { state, dice } = start('individual-speed', people, [
      { purpose: 'initiative', combatant: 'fighter', result: 3 },
      { purpose: 'initiative', combatant: 'guard', result: 4 },
      { purpose: 'initiative', combatant: 'orc', result: 5 },
    ]);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'declare', d: d('guard', 'full-defense') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    give(state, moved('fighter', 20));
    give(state, moved('fighter', 10));
    expectRefused(state, moved('fighter', 5), 'MoveBeyondAllowance');
    expect(give(state, moved('guard', 15)).moved?.allowance).toBe(15);
    expectRefused(state, moved('guard', 5), 'MoveBeyondAllowance');
  });
});

/* ===================================================== addict, segment-d6 */

describe('addict and segment-d6: movement is the GM\'s, recorded only', () => {
  it('segment-d6 (seed 000 sets no rate): any move is recorded, with no allowance and nothing provoked', () => {
    const { state, dice } = start('segment-d6', encounter(pc('fighter'), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter') } }, dice);
    expect(give(state, moved('fighter', 500, { reach: [near('orc', 50)] })).moved).toEqual({ c: 'fighter', feet: 500, total: 500, provoked: [] });
  });
});

/* ================================================================ the log */

describe('the log: a move is one input, replayed on every client', () => {
  it('a combat with moves, a forfeit and an attack of opportunity replays to the same state', () => {
    const people = encounter(pc('fighter'), pc('mage', { spells: ['Sleep'] }), foe('orc'), foe('gob'));
    const dice = new RecordingDice(new ScriptedDice([surprise('party', 12), surprise('foes', 12), init('party', 1, 3), init('foes', 1, 8)]));
    const started = startFlow('d12-ascending', { initiativeMode: 'group' }, people, dice);
    if (!started.ok) throw new Error(JSON.stringify(started.problem));
    const state: FlowState = started.state;
    const entries: LogEntry[] = [{ t: 'start', v: FLOW_VERSION, s: started.detail! }];
    const play = (input: FlowInput) => {
      const before = dice.totals.length;
      give(state, input, dice);
      const r = dice.totals.slice(before);
      entries.push(r.length > 0 ? { ...input, r } : input);
    };
    play({ t: 'declare', d: melee('fighter', 'gob') });
    play({ t: 'declare', d: d('mage', 'spell', { spell: 'Sleep', castingTime: 3 }) });
    play({ t: 'begin', d: { orc: melee('orc', 'fighter'), gob: melee('gob', 'mage') } });
    play(moved('fighter', 15, { reach: [near('orc', 10)] }));
    play(attack('orc', 'fighter'));
    play(moved('mage', 40, { ruling: 'forfeit' }));
    play({ t: 'next' });
    const log = Object.fromEntries(entries.map((e, n) => [`e${String(n).padStart(5, '0')}`, e]));
    const replayed = replay(log);
    expect(replayed.problems).toEqual([]);
    expect(replayed.state).toEqual(state);
    expect(replayed.state?.moves?.map((m) => m.c)).toEqual(['fighter', 'mage']);
  });
});
