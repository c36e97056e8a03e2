/**
 * segment-d6 (seed 000), spells in the surprise segments: "Actions that would
 * normally happen over the course of a round may be completed in one surprise
 * segment: talking, attacking, charging, closing to melee, beginning a spell,
 * etc. ... nor can a spell be fully cast unless it is a one-segment spell."
 * And the casting ruling (seeds/README.md): a spell begun in segment S goes
 * off in S + casting time; "Damage to the caster in segments S … S + time − 1
 * interrupts it and the spell is lost; damage in the segment it goes off is
 * simultaneous and does not stop it."
 */
import { describe, expect, it } from 'vitest';
import { currentEntries, flowFrom, startCombat, type FlowState } from '../../src/rules/flow';
import { ScriptedDice } from '../../src/rules/dice';
import type { Combatant } from '../../src/rules/model';
import { d, encounter, finishRound, give, init, melee, playTo, start, stepOf, surprise } from './flow-helpers';

const halvaine: Combatant = { id: 'halvaine', name: 'Halvaine', side: 'party', hp: 6, spells: ['Sleep', 'Web'] };
const fighter: Combatant = { id: 'fighter', name: 'Fighter', side: 'party', hp: 10 };
const orc: Combatant = { id: 'orc', name: 'Orc', side: 'orcs', hp: 5 };
/** Not surprised when its side is for two segments: "a character's surprise bonus ... acts to negate surprise segments". */
const nimbleOrc: Combatant = { id: 'nimble', name: 'Nimble orc', side: 'orcs', hp: 5, surpriseAdjustment: 2 };

const sleep = (castingTime: number) => d('halvaine', 'spell', { spell: 'Sleep', castingTime, target: 'orc' });

/** The party is not surprised (5); the orcs roll `orcs` (1: one surprise segment, 2: two). Round 1: party 5, orcs 4. */
function surpriseCombat(orcs: number, options: Record<string, boolean> = {}, people = [halvaine, fighter, orc]) {
  return start('segment-d6', encounter(...people), [surprise('party', 5), surprise('orcs', orcs), init('party', 1, 5), init('orcs', 1, 4)], options);
}

/** The outcome of a combatant's entry of a kind in the step being played. */
const outcomeNow = (state: FlowState, combatant: string, kind: string) => currentEntries(state).find((x) => x.entry.combatant === combatant && x.entry.kind === kind)?.outcome;

describe('segment-d6: "nor can a spell be fully cast unless it is a one-segment spell"', () => {
  it('a one-segment spell begun in the single surprise segment is fully cast in it: it goes off at the end of the surprise, before round 1\'s initiative', () => {
    const { state, dice } = surpriseCombat(1);
    expect(state.round).toBe(0);
    give(state, { t: 'declare', d: sleep(1) });
    give(state, { t: 'begin' }, dice);
    const steps = state.schedule?.steps ?? [];
    // Segment 1 (the one surprise segment): it begins; then the end of the surprise, still surprise segment 1: it goes off.
    expect(steps.map((s) => [s.phase, s.segment, s.entries.map((e) => `${e.combatant}:${e.kind}`)])).toEqual([
      ['d6-surprise', 1, ['halvaine:cast-begin']],
      ['d6-surprise', 1, ['halvaine:cast-complete']],
    ]);
    expect(steps[1].entries[0].reason).toBe('SegmentD6SurpriseEnd');
    give(state, { t: 'next' });
    expect(outcomeNow(state, 'halvaine', 'cast-complete')).toBe('goes-off');
    expect(state.states.halvaine.expended).toEqual(['Sleep']);
    finishRound(state, dice);
    expect(state.carry).toEqual([]); // nothing carried into round 1
    expect(dice.log.some((l) => l.request.purpose === 'initiative')).toBe(false); // before round 1's initiative
    give(state, { t: 'next' });
    expect(state.declarations.halvaine).toBeUndefined(); // her only Sleep is spent: "same as last round" cannot carry it
    give(state, { t: 'begin' }, dice);
    expect(stepOf(state, 'halvaine')).toBe(-1); // round 1: no casting of hers goes off
    expect(state.states.halvaine.expended).toEqual(['Sleep']);
  });

  it('damage at the end of the surprise, in the step it goes off, is simultaneous and does not stop it (casting ruling)', () => {
    const { state, dice } = surpriseCombat(1);
    give(state, { t: 'declare', d: sleep(1) });
    give(state, { t: 'begin' }, dice);
    give(state, { t: 'next' });
    expect(give(state, { t: 'hit', target: 'halvaine', amount: 2 }).interruptions).toEqual([]);
    expect(outcomeNow(state, 'halvaine', 'cast-complete')).toBe('goes-off');
  });

  it('a spell longer than the surprise segments left cannot be fully cast in them: it is begun ("beginning a spell") and goes off in round 1', () => {
    const { state, dice } = surpriseCombat(1);
    give(state, { t: 'declare', d: sleep(2) });
    give(state, { t: 'begin' }, dice);
    expect(state.schedule?.steps.flatMap((s) => s.entries.map((e) => e.kind))).toEqual(['cast-begin']);
    finishRound(state, dice);
    // Begun in surprise segment 1, two segments: surprise segment 1 and round 1's segment 1; it goes off in round 1's segment 2.
    expect(state.carry).toMatchObject([{ caster: 'halvaine', spell: 'Sleep', remaining: 2, beganRound: 0 }]);
    give(state, { t: 'next' });
    give(state, { t: 'withdraw', c: 'halvaine' });
    give(state, { t: 'begin' }, dice);
    const k = stepOf(state, 'halvaine', { kind: 'cast-complete' });
    expect(state.schedule?.steps[k].segment).toBe(2);
    playTo(state, k, dice);
    expect(outcomeNow(state, 'halvaine', 'cast-complete')).toBe('goes-off');
  });

  it('a combat whose frozen options predate fullyCastInSurprise (or turn it off) keeps the old rule: it carries into round 1 and goes off in segment 1', () => {
    const dice = new ScriptedDice([surprise('party', 5), surprise('orcs', 1), init('party', 1, 5), init('orcs', 1, 4)]);
    const started = startCombat('segment-d6', {}, encounter(halvaine, fighter, orc), dice);
    if (!started.ok) throw new Error(JSON.stringify(started.problem));
    delete started.start.options.fullyCastInSurprise; // as a start stored by the engine before
    for (const state of [flowFrom(started.start), surpriseCombat(1, { fullyCastInSurprise: false }).state]) {
      give(state, { t: 'declare', d: sleep(1) });
      give(state, { t: 'begin' }, dice);
      expect(state.schedule?.steps.flatMap((s) => s.entries.map((e) => e.kind))).toEqual(['cast-begin']);
      finishRound(state, dice);
      expect(state.carry).toMatchObject([{ caster: 'halvaine', remaining: 1 }]);
    }
  });
});

describe('segment-d6: a hit in the segment a casting begins interrupts it (casting ruling: "Damage to the caster in segments S … S + time − 1 interrupts it and the spell is lost")', () => {
  it.each([
    [1, 'goes off in surprise segment 2'],
    [2, 'goes off at the end of the surprise'],
    [3, 'carries into round 1'],
  ])('in a surprise segment (casting time %i: %s): an unsurprised orc\'s blow in the segment Halvaine begins loses the spell, expended', (castingTime) => {
    // The orcs are surprised for two segments, but the nimble orc's +2 negates them; the party is not surprised.
    const { state, dice } = surpriseCombat(2, {}, [halvaine, fighter, orc, nimbleOrc]);
    give(state, { t: 'declare', d: sleep(castingTime) });
    give(state, { t: 'begin', d: { nimble: melee('nimble', 'halvaine') } }, dice);
    const k = stepOf(state, 'halvaine', { kind: 'cast-begin' });
    expect(state.schedule?.steps[k]).toMatchObject({ phase: 'd6-surprise', segment: 1 });
    expect(stepOf(state, 'nimble')).toBe(k); // the same segment, the same step
    playTo(state, k, dice);
    expect(outcomeNow(state, 'halvaine', 'cast-begin')).toBe('begins');
    const detail = give(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'nimble' });
    expect(detail.interruptions).toEqual([expect.objectContaining({ caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true })]);
    expect(state.states.halvaine.expended).toEqual(['Sleep']);
    // Nothing of it goes off later: not in the surprise, not in round 1.
    finishRound(state, dice);
    expect(state.carry.filter((c) => state.status[c.id] === 'pending')).toEqual([]);
    expect(state.outcomes.flat()).not.toContain('goes-off');
    expect(state.states.halvaine.expended).toEqual(['Sleep']);
  });

  it('in a round: a blow in segment S, the segment the casting begins in, loses the spell', () => {
    // Party 5, orcs 4: both act in segment... the party in the orcs' die (4), the orcs in the party's (5). Tied dice: one segment.
    const { state, dice } = start('segment-d6', encounter(halvaine, fighter, orc), [surprise('party', 5), surprise('orcs', 5), init('party', 1, 4), init('orcs', 1, 4)]);
    give(state, { t: 'declare', d: sleep(2) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'halvaine') } }, dice);
    const k = stepOf(state, 'halvaine', { kind: 'cast-begin' });
    expect(state.schedule?.steps[k].segment).toBe(4);
    expect(stepOf(state, 'orc')).toBe(k);
    playTo(state, k, dice);
    const detail = give(state, { t: 'hit', target: 'halvaine', amount: 2, by: 'orc' });
    expect(detail.interruptions).toEqual([expect.objectContaining({ caster: 'halvaine', outcome: 'interrupted', expended: true })]);
    expect(state.states.halvaine.expended).toEqual(['Sleep']);
  });
});
