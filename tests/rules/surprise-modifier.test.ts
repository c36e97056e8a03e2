/**
 * The situation's surprise modifier of a side (`Side.surpriseModifier`, in
 * pips of the procedure's surprise die, on the range, not the die), under
 * each procedure that rolls surprise. Seed 002: "If the PC's have reason to
 * be on heightened alert and players have stated that their characters are
 * taking 'greater-than-usual' precautions then that should factor into
 * chances of surprise" and "Adjustments are applied to the normal surprise
 * range, not the die roll"; seed 000: "others are stealthy enough that the
 * party may be surprised on a roll of higher than 2"; seed 004 phase 2.1
 * "Determine which parties might be surprised"; seed 001 "The GM will check
 * for Surprise".
 */
import { describe, expect, it } from 'vitest';
import { ScriptedDice } from '../../src/rules/dice';
import type { Combatant, Side } from '../../src/rules/model';
import { resolveOptions, type Encounter } from '../../src/rules/procedure';
import { addictProcedure } from '../../src/rules/procedures/addict';
import { d12AscendingProcedure, surpriseRangeFor } from '../../src/rules/procedures/d12-ascending';
import { highLowProcedure } from '../../src/rules/procedures/high-low';
import { segmentD6Procedure } from '../../src/rules/procedures/segment-d6';
import { surpriseRanges } from '../../src/rules/round/surprise';

const fighter: Combatant = { id: 'fighter', name: 'Fighter', side: 'party', hp: 10, kind: 'character' };
const orc: Combatant = { id: 'orc', name: 'Orc', side: 'orcs', hp: 5, kind: 'monster' };

function encounter(partyModifier?: number, orcsModifier?: number): Encounter {
  const party: Side = { id: 'party', name: 'Party' };
  const orcs: Side = { id: 'orcs', name: 'Orcs' };
  if (partyModifier !== undefined) party.surpriseModifier = partyModifier;
  if (orcsModifier !== undefined) orcs.surpriseModifier = orcsModifier;
  return { sides: [party, orcs], combatants: [fighter, orc] };
}

const rolls = (party: number, orcs: number) =>
  new ScriptedDice([
    { purpose: 'surprise', side: 'party', result: party },
    { purpose: 'surprise', side: 'orcs', result: orcs },
  ]);

describe('a side surprise modifier (the situation, in pips of the surprise die)', () => {
  it('d6 range: +1 widens 1-2 to 1-3, -1 narrows it to 1, never below 0', () => {
    expect(surpriseRanges(encounter(1, -1)).get('party')).toBe(3);
    expect(surpriseRanges(encounter(1, -1)).get('orcs')).toBe(1);
    expect(surpriseRanges(encounter(-5)).get('party')).toBe(0);
    expect(surpriseRanges(encounter()).get('party')).toBe(2);
  });

  it('segment-d6 (seed 000): a party surprised on 1-3 by the situation loses three segments on a 3; -2 on the orcs leaves a roll of 2 unsurprised', () => {
    const opts = resolveOptions(segmentD6Procedure, {}).options;
    const s = segmentD6Procedure.rollSurprise(encounter(1, -2), rolls(3, 2), opts);
    expect(s.rolls).toEqual({ party: 3, orcs: 2 });
    expect(s.surprised).toEqual({ fighter: 3, orc: 0 });
    // Without the modifiers the same dice: the party is not surprised, the orcs are for 2 segments.
    expect(segmentD6Procedure.rollSurprise(encounter(), rolls(3, 2), opts).surprised).toEqual({ fighter: 0, orc: 2 });
  });

  it('addict (seed 004 phase 2): the same d6 range, moved by the side modifier', () => {
    const opts = resolveOptions(addictProcedure, { mutualSurprise: false }).options;
    const s = addictProcedure.rollSurprise(encounter(1, -2), rolls(3, 2), opts);
    expect(s.surprised).toEqual({ fighter: 3, orc: 0 });
    expect(addictProcedure.rollSurprise(encounter(), rolls(3, 2), opts).surprised).toEqual({ fighter: 0, orc: 2 });
  });

  it('high-low (seed 001 "The GM will check for Surprise"): surprised on 1..surprisedOn + the modifier of its die', () => {
    const opts = resolveOptions(highLowProcedure, {}).options;
    expect(highLowProcedure.rollSurprise(encounter(1), rolls(3, 4), opts).surprised).toEqual({ fighter: 1, orc: 0 });
    expect(highLowProcedure.rollSurprise(encounter(), rolls(3, 4), opts).surprised).toEqual({ fighter: 0, orc: 0 });
    // -2 on the party: a roll of 1 no longer surprises it (range 0: no roll at all).
    const none = highLowProcedure.rollSurprise(encounter(-2), rolls(1, 1), opts);
    expect(none.rolls.party).toBeUndefined();
    expect(none.surprised.fighter).toBe(0);
  });

  it('d12-ascending (seed 002 "Adjustments are applied to the normal surprise range"): heightened alert -2 narrows 1-4 to 1-2', () => {
    const opts = resolveOptions(d12AscendingProcedure, {}).options;
    expect(surpriseRangeFor(encounter(-2), 'party')).toBe(2);
    expect(surpriseRangeFor(encounter(3), 'party')).toBe(7);
    const alert = d12AscendingProcedure.rollSurprise(encounter(-2), rolls(3, 12), opts);
    expect(alert.surprised.fighter).toBe(0);
    const unaware = d12AscendingProcedure.rollSurprise(encounter(), rolls(3, 12), opts);
    expect(unaware.surprised.fighter).toBe(1);
  });

  it('d12-ascending with individual rolls: a character rolling its own die has its side modifier too', () => {
    const opts = resolveOptions(d12AscendingProcedure, { initiativeMode: 'individual' }).options;
    const dice = () =>
      new ScriptedDice([
        { purpose: 'surprise', combatant: 'fighter', result: 6 },
        { purpose: 'surprise', side: 'orcs', result: 12 },
      ]);
    expect(d12AscendingProcedure.rollSurprise(encounter(2), dice(), opts).surprised.fighter).toBe(1);
    expect(d12AscendingProcedure.rollSurprise(encounter(), dice(), opts).surprised.fighter).toBe(0);
  });
});
