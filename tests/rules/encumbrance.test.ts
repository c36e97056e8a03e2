import { describe, expect, it } from 'vitest';
import { encumbrance, encumbranceBand, encumbranceRateInches, squaresOfInches } from '../../src/rules/encumbrance';

// Seed 002, "Movement During the Round": "up to 35#, light 12” (6sq) 9” / 35# – 70#, heavy 9” (4sq) 6” /
// 70# – 105#, very heavy 6” (3sq) 3” / over 105#, encumbered 3” (2sq) -".
describe('encumbrance (seed 002, "Movement During the Round")', () => {
  it('bands by weight: up to 35# light, to 70# heavy, to 105# very heavy, over 105# encumbered', () => {
    expect([0, 35, 35.5, 70, 71, 105, 106].map((w) => encumbranceBand(w))).toEqual(['light', 'light', 'heavy', 'heavy', 'veryHeavy', 'veryHeavy', 'encumbered']);
  });

  it('"strength bonuses or penalties will adjust those weight totals": an allowance moves every limit', () => {
    expect(encumbranceBand(45, 10)).toBe('light');
    expect(encumbranceBand(30, -10)).toBe('heavy');
  });

  it('the human/elf/dwarf column is 12”, 9”, 6”, 3”; the halfling column 9”, 6”, 3” and "-" (no movement)', () => {
    expect((['light', 'heavy', 'veryHeavy', 'encumbered'] as const).map((b) => encumbranceRateInches(b, false))).toEqual([12, 9, 6, 3]);
    expect((['light', 'heavy', 'veryHeavy', 'encumbered'] as const).map((b) => encumbranceRateInches(b, true))).toEqual([9, 6, 3, 0]);
  });

  it('"12” (which for our purposes is six squares)": the seed\'s squares for 12”, 9”, 6”, 3”; other rates half their inches', () => {
    expect([12, 9, 6, 3].map(squaresOfInches)).toEqual([6, 4, 3, 2]);
    expect(squaresOfInches(15)).toBe(7);
    expect(squaresOfInches(0)).toBe(0);
  });

  it('a load never lets a combatant move faster than its own rate', () => {
    expect(encumbrance(20, 12, false)).toEqual({ band: 'light', inches: 12, squares: 6 });
    expect(encumbrance(50, 12, false)).toEqual({ band: 'heavy', inches: 9, squares: 4 });
    expect(encumbrance(20, 6, false)).toEqual({ band: 'light', inches: 6, squares: 3 });
    expect(encumbrance(120, 9, true)).toEqual({ band: 'encumbered', inches: 0, squares: 0 });
  });
});
