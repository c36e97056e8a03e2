import { describe, expect, it } from 'vitest';
import { ScriptedDice, SequenceDice } from '../../src/rules/dice';
import type { Combatant } from '../../src/rules/model';
import { playSchedule } from '../../src/rules/play';
import type { Encounter, Procedure, ProcedureOptions, Schedule } from '../../src/rules/procedure';
import { hpDamage, initialStates, RoundBuilder } from '../../src/rules/round';

// A minimal procedure: only what playSchedule asks of it (damage and canAct).
const bare = {
  id: 'segment-d6',
  applyDamage: (_c: Combatant, s, amount: number) => hpDamage(s, amount, { incapacitatedAt: 0, deathAt: 0 }),
  canAct: (s) => s.condition === 'ok',
} as Partial<Procedure<ProcedureOptions>> as Procedure<ProcedureOptions>;

const encounter: Encounter = {
  sides: [
    { id: 'party', name: 'Party' },
    { id: 'orcs', name: 'Orcs' },
  ],
  combatants: [
    { id: 'halvaine', name: 'Halvaine', side: 'party', hp: 6 },
    { id: 'fighter', name: 'Fighter', side: 'party', hp: 10 },
    { id: 'orc', name: 'Orc', side: 'orcs', hp: 5 },
  ],
};

/** Halvaine begins a 2-segment spell in 4 (goes off in 6); the orc attacks in `orcSegment`. */
function halvaineSchedule(orcSegment: number): Schedule {
  const b = new RoundBuilder('segment-d6', 1);
  const at = (s: number) => ({ phase: 'segment', segment: s });
  b.add(4, at(4), { combatant: 'halvaine', kind: 'cast-begin', action: 'spell', casting: 'c1' });
  b.add(6, at(6), { combatant: 'halvaine', kind: 'cast-complete', action: 'spell', casting: 'c1' });
  b.add(orcSegment, at(orcSegment), { combatant: 'orc', kind: 'action', action: 'melee', target: 'halvaine' });
  b.add(4, at(4), { combatant: 'fighter', kind: 'action', action: 'melee', target: 'orc' });
  b.cast({
    id: 'c1',
    caster: 'halvaine',
    spell: 'Sleep',
    device: false,
    castingTime: 2,
    beganRound: 1,
    begin: 4,
    complete: 6,
    lossFrom: 4,
    preventFrom: 4,
    expends: true,
    remaining: 0,
  });
  return b.build();
}

describe('playSchedule: simultaneity and casting (seeds README rulings)', () => {
  it('a hit in segment 5 spoils a spell begun in 4 that would go off in 6 (Halvaine example, seed 000)', () => {
    const log = playSchedule(bare, encounter, halvaineSchedule(5), initialStates(encounter), [
      { round: 1, by: 'orc', target: 'halvaine', amount: 2 },
    ], {});
    const last = log.steps[log.steps.length - 1];
    expect(last.segment).toBe(6);
    expect(last.entries[0].outcome).toBe('interrupted');
    expect(log.steps.find((s) => s.segment === 5)?.interruptions).toEqual([
      { casting: 'c1', caster: 'halvaine', spell: 'Sleep', outcome: 'interrupted', expended: true },
    ]);
    expect(log.states.halvaine.expended).toEqual(['Sleep']);
  });

  it('damage in the segment the spell goes off is simultaneous and does not stop it (ruling: casting time)', () => {
    const log = playSchedule(bare, encounter, halvaineSchedule(6), initialStates(encounter), [
      { round: 1, by: 'orc', target: 'halvaine', amount: 2 },
    ], {});
    const six = log.steps.find((s) => s.segment === 6)!;
    expect(six.entries.find((e) => e.entry.combatant === 'halvaine')?.outcome).toBe('goes-off');
    expect(six.interruptions).toEqual([]);
    // The spell is cast, so it is expended too, and the hp loss is recorded.
    expect(log.states.halvaine.expended).toEqual(['Sleep']);
    expect(log.states.halvaine.hp).toBe(4);
  });

  it('damage before the casting begins does not touch it when lossFrom is the begin step', () => {
    const log = playSchedule(bare, encounter, halvaineSchedule(3), initialStates(encounter), [
      { round: 1, by: 'orc', target: 'halvaine', amount: 2 },
    ], {});
    expect(log.steps.find((s) => s.segment === 6)?.entries[0].outcome).toBe('goes-off');
  });

  it('combatants killed in a segment still deal that segment\'s damage (ruling: simultaneous actions)', () => {
    const b = new RoundBuilder('segment-d6', 1);
    b.add(3, { phase: 'segment', segment: 3 }, { combatant: 'fighter', kind: 'action', action: 'melee', target: 'orc' });
    b.add(3, { phase: 'segment', segment: 3 }, { combatant: 'orc', kind: 'action', action: 'melee', target: 'fighter' });
    b.add(5, { phase: 'segment', segment: 5 }, { combatant: 'orc', kind: 'routine', action: 'melee', routine: 2, target: 'fighter' });
    const log = playSchedule(bare, encounter, b.build(), initialStates(encounter), [
      { round: 1, by: 'fighter', target: 'orc', amount: 9 },
      { round: 1, by: 'orc', target: 'fighter', amount: 4 },
      { round: 1, by: 'orc', routine: 2, target: 'fighter', amount: 4 },
    ], {});
    expect(log.states.orc.condition).toBe('dead');
    expect(log.states.fighter.hp).toBe(6); // the dying orc's blow in segment 3 landed
    expect(log.steps[1].entries[0].outcome).toBe('cannot-act'); // but it is dead by segment 5
    expect(log.unapplied).toHaveLength(1);
    expect(log.steps[0].fallen).toEqual([{ combatant: 'orc', condition: 'dead' }]);
  });

  it('does not change the states it was given', () => {
    const start = initialStates(encounter);
    const copy = structuredClone(start);
    playSchedule(bare, encounter, halvaineSchedule(5), start, [{ round: 1, by: 'orc', target: 'halvaine', amount: 2 }], {});
    expect(start).toEqual(copy);
  });

  it('a casting the caster elects not to complete is cancelled, not expended', () => {
    const log = playSchedule(bare, encounter, halvaineSchedule(3), initialStates(encounter), [], {}, ['c1']);
    expect(log.steps.find((s) => s.segment === 6)?.entries[0].outcome).toBe('cancelled');
    expect(log.states.halvaine.expended).toEqual([]);
  });
});

describe('dice', () => {
  it('scripted dice answer by purpose and side, refuse impossible results and report unused entries', () => {
    const dice = new ScriptedDice([
      { purpose: 'initiative', side: 'orcs', result: 4 },
      { purpose: 'initiative', side: 'party', result: 5 },
      { purpose: 'surprise', result: 9 },
    ]);
    expect(dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: 'party' })).toBe(5);
    expect(dice.roll({ purpose: 'initiative', count: 1, faces: 6, side: 'orcs' })).toBe(4);
    expect(() => dice.roll({ purpose: 'surprise', count: 1, faces: 6 })).toThrow(/impossible/);
    expect(() => dice.roll({ purpose: 'morale', count: 3, faces: 6 })).toThrow(/no scripted/);
    expect(new SequenceDice([3]).roll({ purpose: 'other', count: 1, faces: 6 })).toBe(3);
  });
});
