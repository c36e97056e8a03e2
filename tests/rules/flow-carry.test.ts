/**
 * A casting carried into the next round, with that round's declarations left
 * to "same as last round" (README, Rules notes, "Every procedure: the flow"):
 * the declaration carried on is the casting still under way. It must not
 * begin the spell again once the carried casting went off when no copy is
 * left in memory ("a spell cast is expended", model; one copy per memorized
 * entry). Casting-time ruling (seeds/README.md): 'A casting time of "1 round"
 * is 10 segments and carries into the next round.'
 */
import { describe, expect, it } from 'vitest';
import type { ScriptedRoll } from '../../src/rules/dice';
import { flowFrom, startCombat, type FlowState } from '../../src/rules/flow';
import { ScriptedDice } from '../../src/rules/dice';
import type { Combatant, ProcedureId } from '../../src/rules/model';
import { d, encounter, finishRound, give, init, melee, start, surprise } from './flow-helpers';

const mage = (spells: string[]): Combatant => ({ id: 'mage', name: 'Mage', side: 'party', hp: 10, spells });
const ogre: Combatant = { id: 'ogre', name: 'Ogre', side: 'foes', hp: 30 };
const fighter: Combatant = { id: 'fighter', name: 'Fighter', side: 'party', hp: 10 };

/** Each procedure that carries castings, with a casting time that runs past round 1 and the dice for three rounds. */
interface Case {
  procedure: ProcedureId;
  /** The seed passage that makes this casting run past the round. */
  why: string;
  castingTime: number;
  dice: ScriptedRoll[];
  /** When the second copy is begun under "same as last round": after the carried casting went off, or in the next round. */
  second: { round: 2 | 3; when: string; why: string };
}

const threeRounds = (sides: [number, number][]): ScriptedRoll[] => sides.flatMap(([p, f], i) => [init('party', i + 1, p), init('foes', i + 1, f)]);

const CASES: Case[] = [
  {
    procedure: 'segment-d6',
    why: 'seed 000: "The spell does not \'go off\' until the casting has been completed"; 1 round = 10 segments carries over',
    castingTime: 10,
    dice: [surprise('party', 5), surprise('foes', 5), ...threeRounds([[3, 4], [2, 6], [2, 6]])],
    second: { round: 2, when: 'in round 2 after the carried casting went off', why: 'README segment-d6: "its new declaration is planned only if its segment comes after the completion"' },
  },
  {
    procedure: 'addict',
    why: 'seed 004: spells begin in segment 1 (footnote 18); a casting past segment 10 carries on',
    castingTime: 10,
    dice: [surprise('party', 5), surprise('foes', 5), ...threeRounds([[5, 2], [3, 4], [3, 4]])],
    second: { round: 2, when: 'in round 2 once the carried casting went off', why: 'README addict, busy casters: "its other declared actions move to that segment"' },
  },
  {
    procedure: 'high-low',
    why: 'seed 001: "1 round" completes in its own spells phase, a longer casting carries on',
    castingTime: 15,
    dice: [surprise('party', 6), surprise('foes', 6), ...threeRounds([[5, 2], [3, 4], [3, 4]])],
    second: { round: 3, when: 'in round 3', why: 'a casting under way is the caster\'s major action: "Only one spell can be cast per round"' },
  },
  {
    procedure: 'd12-ascending',
    why: 'seed 002 II.C: "Caster is then casting for the duration of the listed casting time"; over 10 it takes whole rounds',
    castingTime: 15,
    dice: [surprise('party', 12), surprise('foes', 12), ...threeRounds([[5, 2], [3, 4], [3, 4]])],
    second: { round: 3, when: 'in round 3', why: 'II.C "Caster is then casting for the duration of the listed casting time"' },
  },
];

/** Round 1 declared: the mage casts its Web at the ogre, the fighter and the ogre fight; played to its end. */
function roundOne(c: Case, spells: string[]) {
  const { state, dice } = start(c.procedure, encounter(mage(spells), fighter, ogre), c.dice);
  expect(state.round).toBe(1); // nobody surprised
  give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Web', castingTime: c.castingTime, target: 'ogre' }) });
  give(state, { t: 'declare', d: melee('fighter', 'ogre') });
  give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter') } }, dice);
  finishRound(state, dice);
  expect(state.carry.map((x) => x.caster)).toEqual(['mage']);
  return { state, dice };
}

/** Next round, its declarations left as they were ("same as last round"), played to its end: the mage's casting entries. */
function sameAsLastRound(state: FlowState, dice: Parameters<typeof give>[2]): { begins: number; goesOff: number } {
  give(state, { t: 'next' });
  give(state, { t: 'begin' }, dice);
  const count = { begins: 0, goesOff: 0 };
  for (;;) {
    const step = state.schedule?.steps[state.step];
    step?.entries.forEach((e, i) => {
      if (e.combatant !== 'mage') return;
      const o = state.outcomes[state.step]?.[i];
      if (o === 'begins') count.begins++;
      if (o === 'goes-off') count.goesOff++;
    });
    give(state, { t: 'next' }, dice);
    if (state.stage !== 'resolve') return count;
  }
}

describe.each(CASES)('$procedure: a casting carried into the next round, declarations "same as last round"', (c) => {
  it(`its only copy goes off once and is not begun again (${c.why})`, () => {
    const { state, dice } = roundOne(c, ['Web']);
    const round2 = sameAsLastRound(state, dice);
    expect(round2).toEqual({ begins: 0, goesOff: 1 });
    expect(state.states.mage.expended).toEqual(['Web']);
    expect(state.carry).toEqual([]); // nothing begun that could go off later with no copy
    const round3 = sameAsLastRound(state, dice);
    expect(round3).toEqual({ begins: 0, goesOff: 0 });
    expect(state.states.mage.expended).toEqual(['Web']); // one copy, spent once
  });

  it(`with a second copy memorized, it is begun ${c.second.when} (${c.second.why})`, () => {
    const { state, dice } = roundOne(c, ['Web', 'Web']);
    const round2 = sameAsLastRound(state, dice);
    expect(round2).toEqual({ begins: c.second.round === 2 ? 1 : 0, goesOff: 1 });
    expect(state.states.mage.expended).toEqual(['Web']);
    const round3 = sameAsLastRound(state, dice);
    expect(round3.begins).toBe(c.second.round === 3 ? 1 : 0);
    // Never more spent than memorized, and no casting left under way that no copy could pay for.
    expect(state.states.mage.expended.length + state.carry.length).toBe(2);
  });
});

describe('a combat started before this was decided (its start has no `rules`) replays as it was stored', () => {
  // What the engine before planned (and a stored log of it recorded): segment-d6 began the spell again with its only copy
  // spent; d12-ascending began a second copy while the first was still being cast.
  it.each([
    { c: CASES[0], spells: ['Web'] },
    { c: CASES[3], spells: ['Web', 'Web'] },
  ])('$c.procedure: round 2 is planned from its declarations as before', ({ c, spells }) => {
    const dice = new ScriptedDice(c.dice);
    const started = startCombat(c.procedure, {}, encounter(mage(spells), fighter, ogre), dice);
    if (!started.ok) throw new Error(JSON.stringify(started.problem));
    const { rules: _rules, conditions: _conditions, ...before } = started.start; // as the engine before stored it
    const state = flowFrom(before);
    give(state, { t: 'declare', d: d('mage', 'spell', { spell: 'Web', castingTime: c.castingTime, target: 'ogre' }) });
    give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter') } }, dice);
    finishRound(state, dice);
    expect(sameAsLastRound(state, dice)).toEqual({ begins: 1, goesOff: 1 });
  });
});

describe('addict phase 6: hesitation belongs to the round it was noted in ("For every full 6 seconds of real-life delay, the DM notes that the character will delay 1 segment")', () => {
  const dice = () => new ScriptedDice([surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2), init('party', 2, 5), init('foes', 2, 2)]);
  /** The segment of the fighter's melee in the round being played. */
  const fighterSegment = (state: FlowState) => state.schedule!.steps.find((s) => s.entries.some((e) => e.combatant === 'fighter' && e.kind === 'action'))?.segment;

  it('a declaration carried on "same as last round" is not delayed again: the player did not hesitate in that round', () => {
    const rolls = dice();
    const started = startCombat('addict', {}, encounter(fighter, ogre), rolls);
    if (!started.ok) throw new Error(JSON.stringify(started.problem));
    const state = flowFrom(started.start);
    give(state, { t: 'declare', d: melee('fighter', 'ogre', { hesitationSeconds: 13 }) });
    give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter') } }, rolls);
    // The party acts in the foes' segment, 2; 13 seconds are two full 6 s: segment 4.
    expect(fighterSegment(state)).toBe(4);
    finishRound(state, rolls);
    give(state, { t: 'next' });
    expect(state.declarations.fighter).not.toHaveProperty('hesitationSeconds');
    give(state, { t: 'begin' }, rolls);
    expect(fighterSegment(state)).toBe(2);
  });

  it('a combat started under rules revision 1 keeps the hesitation it stored', () => {
    const rolls = dice();
    const started = startCombat('addict', {}, encounter(fighter, ogre), rolls);
    if (!started.ok) throw new Error(JSON.stringify(started.problem));
    const state = flowFrom({ ...started.start, rules: 1 });
    give(state, { t: 'declare', d: melee('fighter', 'ogre', { hesitationSeconds: 13 }) });
    give(state, { t: 'begin', d: { ogre: melee('ogre', 'fighter') } }, rolls);
    finishRound(state, rolls);
    give(state, { t: 'next' });
    give(state, { t: 'begin' }, rolls);
    expect(fighterSegment(state)).toBe(4);
  });
});
