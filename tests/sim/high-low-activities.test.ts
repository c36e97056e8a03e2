/**
 * The high-low declaration fields in the scenario file (README "The scenario
 * file"): goFirst, delaying, innate, minorActions and dexterityReaction are
 * accepted, checked by the procedure at their declaration, and played as
 * seed 001 says.
 */
import { describe, expect, it } from 'vitest';
import { RandomDice } from '../../src/rules/dice';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { runScenario, validateScenario } from '../../src/sim/scenario';

function scenario(declarations: Record<string, unknown>, options: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    procedure: 'high-low',
    options,
    sides: [
      { id: 'party', name: 'Party' },
      { id: 'orcs', name: 'Orcs' },
    ],
    combatants: [
      { id: 'elf', side: 'party', hp: 8, surpriseAdjustment: 2, weapon: { name: 'long sword', speed: 5 } },
      { id: 'mage', side: 'party', hp: 5, spells: ['Sleep'] },
      { id: 'orc', side: 'orcs', hp: 6, weapon: { name: 'battle axe', speed: 7 } },
      { id: 'boss', side: 'orcs', hp: 12, weapon: { name: 'battle axe', speed: 7 } },
    ],
    declarations: { '1': declarations },
    dice: [
      { purpose: 'surprise', side: 'party', result: 6 },
      { purpose: 'surprise', side: 'orcs', result: 6 },
      { purpose: 'initiative', side: 'party', round: 1, result: 3 },
      { purpose: 'initiative', side: 'orcs', round: 1, result: 5 },
    ],
  };
}

/** Each step of round 1 as "phase: who acts (action)". */
function played(raw: Record<string, unknown>): string[] {
  const r = validateScenario(raw, PROCEDURES);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const run = runScenario(r.scenario, new RandomDice(1));
  if (!run.ok) throw new Error(JSON.stringify(run.problems));
  return run.log.rounds[0].steps.map((s) => `${s.phase}: ${s.entries.map((e) => `${e.entry.combatant} ${e.entry.action}`).sort().join(', ')}`);
}

describe('high-low declaration fields in a scenario file', () => {
  it('are accepted and played: Go First, innate first in its group, the Dexterity Reaction Adjustment, minor actions in a tie', () => {
    const steps = played(
      scenario({
        // Party 3 + 2 = 5 reaches the orcs' 5: the elf fights in HIGH.
        elf: { action: 'melee', target: 'boss', dexterityReaction: true },
        mage: { action: 'other', innate: true, goFirst: true },
        // "your weapon speed will be 8 instead of 7": the orc dropped a shield first; the boss's axe (7) and the
        // elf's sword (5) come before it.
        orc: { action: 'melee', target: 'elf', minorActions: 1 },
        boss: { action: 'melee', target: 'elf' },
      }),
    );
    expect(steps).toEqual(['fast: mage other', 'high: elf melee', 'high: boss melee', 'high: orc melee']);
  });

  it('a delaying activity acts on LOW; a complex activity goes last', () => {
    const steps = played(
      scenario({
        elf: { action: 'complex' },
        mage: { action: 'none' },
        orc: { action: 'missile', target: 'elf', delaying: true },
        boss: { action: 'melee', target: 'elf' },
      }),
    );
    expect(steps).toEqual(['high: boss melee', 'low: orc missile', 'go-last: elf complex']);
  });

  it('bad values name the field; combinations the seed forbids come back with the procedure\'s key at the declaration', () => {
    const r = validateScenario(
      scenario({
        elf: { action: 'melee', goFirst: 'yes' },
        mage: { action: 'spell', spell: 'Sleep', castingTime: 1, goFirst: true },
        orc: { action: 'complex', minorActions: 2 },
        boss: { action: 'melee', minorActions: 11 },
      }),
      PROCEDURES,
    );
    if (r.ok) throw new Error('expected problems');
    expect(r.problems).toContainEqual(expect.objectContaining({ key: 'ExpectedBoolean', path: 'declarations.1.elf.goFirst' }));
    expect(r.problems).toContainEqual(expect.objectContaining({ key: 'NumberTooLarge', path: 'declarations.1.boss.minorActions' }));
    expect(r.problems).toContainEqual(expect.objectContaining({ key: 'HighLowGoFirstNotAllowed', path: 'declarations.1.mage' }));
    expect(r.problems).toContainEqual(expect.objectContaining({ key: 'HighLowComplexTakesRound', path: 'declarations.1.orc', data: { name: 'orc', field: 'minorActions' } }));
  });
});
