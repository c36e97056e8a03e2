import { describe, expect, it } from 'vitest';
import { canUseWeaponHere, needsOpenSquare } from '../../src/rules/space';

// Seed 001, "Space Required": "Any weapon requiring more than 4-ft. of space to use
// requires at least one open adjacent square."
describe('space required (seed 001)', () => {
  it('a weapon needing more than 4 ft needs an open adjacent square; 4 ft or less does not', () => {
    expect(needsOpenSquare(4)).toBe(false);
    expect(needsOpenSquare(6)).toBe(true);
    expect(needsOpenSquare(undefined)).toBe(false);
  });

  it('"could make a weapon unusable if attacked by many enemies": surrounded on all eight squares, a 6 ft weapon cannot be used', () => {
    const at = { col: 5, row: 5 };
    const ring = [-1, 0, 1].flatMap((dr) => [-1, 0, 1].filter((dc) => dr || dc).map((dc) => ({ col: 5 + dc, row: 5 + dr })));
    expect(canUseWeaponHere(6, at, ring)).toBe(false);
    expect(canUseWeaponHere(6, at, ring.slice(1))).toBe(true);
    // the halberd used spear-like needs only 2 ft: usable even when surrounded
    expect(canUseWeaponHere(2, at, ring)).toBe(true);
  });
});
