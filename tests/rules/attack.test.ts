import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SequenceDice } from '../../src/rules/dice';
import {
  aac0ForLevel,
  applyArmorClassBonus,
  criticalMultiplier,
  damageTaken,
  defenseScore,
  resolveDefenseAttack,
  armorClassProblem,
  attackTable,
  damageColumn,
  hittingFaces,
  neededToHit,
  parseAac0,
  resolveAttack,
  rollAttack,
  type Aac0,
} from '../../src/rules/attack';

function aac0(v: string | number): Aac0 {
  const r = parseAac0(v);
  if (!r.ok) throw new Error(`bad AAC0 ${v}`);
  return r.value;
}

function hits(a: Aac0, ac: number, natural: number, modifier = 0): boolean {
  const r = resolveAttack({ aac0: a, ac, modifiers: modifier ? [{ source: 'test', value: modifier }] : [] }, natural);
  if (!r.ok) throw new Error(r.problem.key);
  return r.value.hit;
}

describe('AAC0: "roll needed to successfully strike an armor class rating of 0" (seed 001)', () => {
  it('AAC0 is the score needed against AC 0 and worse AC is easier by one per step', () => {
    const a = aac0(15);
    expect(neededToHit(a, 0)).toBe(15);
    expect(neededToHit(a, 5)).toBe(10);
    expect(neededToHit(a, 10)).toBe(5);
    expect(neededToHit(a, -3)).toBe(18);
  });

  it('"there are always a sequence of six 20s before a 21 is required"', () => {
    const a = aac0(15);
    // AC -5 … -10 need 20 (six ACs), the next one would need 21.
    for (let ac = -5; ac >= -10; ac--) expect(neededToHit(a, ac)).toBe(20);
    const b = aac0(20);
    const column = attackTable(b).map((r) => r.needed);
    expect(column.filter((n) => n === 20)).toHaveLength(6);
    expect(neededToHit(b, 0)).toBe(20);
    expect(neededToHit(b, -5)).toBe(20);
    expect(neededToHit(b, -6)).toBe(21);
    expect(neededToHit(b, -10)).toBe(25);
  });

  it('"… and increase with each armor class from there"', () => {
    const b = aac0(17);
    // AC -3 is the first 20; AC -8 the sixth; AC -9 needs 21; AC -10 needs 22.
    expect(neededToHit(b, -3)).toBe(20);
    expect(neededToHit(b, -8)).toBe(20);
    expect(neededToHit(b, -9)).toBe(21);
    expect(neededToHit(b, -10)).toBe(22);
  });

  it('"A figure of \'20*\' means that the creature also needs a 20 to strike an AC of 1"', () => {
    const star = aac0('20*');
    expect(star.value).toBe(20);
    expect(neededToHit(star, 1)).toBe(20);
    expect(neededToHit(star, 0)).toBe(20);
    expect(neededToHit(star, 2)).toBe(19);
    // Still six 20s (AC 1 … -4), then 21.
    expect(neededToHit(star, -4)).toBe(20);
    expect(neededToHit(star, -5)).toBe(21);
    // A plain 20 needs 19 against AC 1.
    expect(neededToHit(aac0(20), 1)).toBe(19);
  });

  it('an AAC0 past the run of 20s: 21 against AC 0', () => {
    const a = aac0(21);
    expect(neededToHit(a, 0)).toBe(21);
    // The six 20s are AC 1 … 6; AC 7 needs 19.
    expect(neededToHit(a, 1)).toBe(20);
    expect(neededToHit(a, 6)).toBe(20);
    expect(neededToHit(a, 7)).toBe(19);
  });

  it('every column has exactly one run of 20s of length six (or the part of it on the -10..10 scale)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), (v) => {
        const col = attackTable(aac0(v)).map((r) => r.needed);
        // Needed never decreases as AC improves and rises by at most 1 per step.
        for (let i = 1; i < col.length; i++) expect(col[i] - col[i - 1]).toBeGreaterThanOrEqual(0);
        for (let i = 1; i < col.length; i++) expect(col[i] - col[i - 1]).toBeLessThanOrEqual(1);
        expect(col.filter((n) => n === 20).length).toBeLessThanOrEqual(6);
      }),
    );
  });

  it('reads "AAC0 15", numbers and starred 20s; refuses the rest', () => {
    expect(aac0('AAC0 15').value).toBe(15);
    expect(aac0('20**').stars).toBe(2);
    for (const bad of ['19*', 'x', '', '0', '31', 12.5, null, '20******']) {
      const r = parseAac0(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problem.key).toBe('Aac0Invalid');
    }
  });
});

describe('the d20 roll (seed 001)', () => {
  it('"needs a \'20\' to hit an AC -1, but has a +2 modifier — they will hit on a roll of 18, 19, or 20"', () => {
    const a = aac0(19); // AC -1 needs 20
    expect(neededToHit(a, -1)).toBe(20);
    expect(hits(a, -1, 17, 2)).toBe(false);
    expect(hits(a, -1, 18, 2)).toBe(true);
    expect(hits(a, -1, 19, 2)).toBe(true);
    expect(hits(a, -1, 20, 2)).toBe(true);
  });

  it('"a natural 20 rolled always hits", even when 22 is needed', () => {
    const a = aac0(17);
    expect(neededToHit(a, -10)).toBe(22);
    expect(hits(a, -10, 20)).toBe(true);
    expect(hits(a, -10, 19, 2)).toBe(false);
  });

  it('"A natural 1 rolled on the d20 always misses", whatever the modifier', () => {
    const a = aac0(10);
    expect(hits(a, 10, 1, 15)).toBe(false);
    expect(hits(a, 10, 2)).toBe(true);
  });

  it('hitting faces are always between 1 (natural 20) and 19 (all but a natural 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 }), (v, ac, mod) => {
        const faces = hittingFaces({ aac0: aac0(v), ac, modifiers: [{ source: 'm', value: mod }] });
        expect(faces).toBeGreaterThanOrEqual(1);
        expect(faces).toBeLessThanOrEqual(19);
      }),
    );
  });

  it('rolls a d20 through the Dice interface', () => {
    const r = rollAttack({ aac0: aac0(15), ac: 4 }, new SequenceDice([11]));
    expect(r.ok && r.value).toMatchObject({ natural: 11, needed: 11, hit: true });
  });

  it('bad input is a Problem, not a crash', () => {
    const a = aac0(15);
    const r1 = resolveAttack({ aac0: a, ac: 11 }, 10);
    expect(r1.ok).toBe(false);
    if (!r1.ok) expect(r1.problem.key).toBe('ArmorClassInvalid');
    const r2 = resolveAttack({ aac0: a, ac: 3 }, 21);
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.problem.key).toBe('AttackRollInvalid');
  });
});

describe('armor class (seed 001: "The scale for armor class is -10 to 0 to 10")', () => {
  it('accepts -10..10 integers only', () => {
    expect(armorClassProblem(-10)).toBeNull();
    expect(armorClassProblem(10)).toBeNull();
    expect(armorClassProblem(11)?.key).toBe('ArmorClassInvalid');
    expect(armorClassProblem(-11)?.key).toBe('ArmorClassInvalid');
    expect(armorClassProblem(2.5)?.key).toBe('ArmorClassInvalid');
  });
  it('"a creature with an AC 5 that receives a +2 bonus to AC will become AC 3"; penalties raise it', () => {
    expect(applyArmorClassBonus(5, 2)).toBe(3);
    expect(applyArmorClassBonus(5, -2)).toBe(7);
    expect(applyArmorClassBonus(-9, 4)).toBe(-10);
    expect(applyArmorClassBonus(9, -4)).toBe(10);
  });
});

describe('class attack tables given as data (seed 001: "pick a chart with the same Attack AC 0")', () => {
  const table = { name: 'fighter', aac0ByLevel: [20, 19, 18, 17] };
  it('reads the AAC0 for a level; levels past the end keep the last row', () => {
    expect(aac0ForLevel(table, 1)).toMatchObject({ ok: true, value: { value: 20 } });
    expect(aac0ForLevel(table, 3)).toMatchObject({ ok: true, value: { value: 18 } });
    expect(aac0ForLevel(table, 9)).toMatchObject({ ok: true, value: { value: 17 } });
  });
  it('a bad level is a Problem', () => {
    expect(aac0ForLevel(table, -1)).toMatchObject({ ok: false, problem: { key: 'AttackTableLevelInvalid' } });
  });
});

describe('damageColumn: a weapon\'s damage "vs. S-M" or "vs. L"', () => {
  it('small and medium creatures take the small/medium column, large ones the large; an unknown size counts as medium', () => {
    expect(damageColumn('small')).toBe('small');
    expect(damageColumn('medium')).toBe('small');
    expect(damageColumn(undefined)).toBe('small');
    expect(damageColumn('large')).toBe('large');
  });
});

describe('Defense and Armour (seed 003, Combat Stats)', () => {
  const roll = (natural: number, attackBonus: number, defense: number) => {
    const r = resolveDefenseAttack({ attackBonus, defense }, natural);
    if (!r.ok) throw new Error(r.problem.key);
    return r.value;
  };

  it('"a Defense score equal to 10 plus its Agility modifier plus its Defense bonus"; Full-Defense "adds +4 to their Defense score"', () => {
    expect(defenseScore({})).toBe(10);
    expect(defenseScore({ agilityModifier: 2, defenseBonus: 3 })).toBe(15);
    expect(defenseScore({ agilityModifier: -1, defenseBonus: 3 }, true)).toBe(16);
  });

  it('"any attack must equal or exceed a creature\'s Defense score to hit it": d20 + attack bonus (ruling)', () => {
    expect(roll(12, 3, 15)).toMatchObject({ total: 15, defense: 15, hit: true, critical: false, reason: 'total' });
    expect(roll(11, 3, 15)).toMatchObject({ total: 14, hit: false });
    const withMods = resolveDefenseAttack({ attackBonus: 1, defense: 15, modifiers: [{ source: 'flank', value: 2 }] }, 12);
    expect(withMods.ok && withMods.value).toMatchObject({ modifier: 3, total: 15, hit: true });
  });

  it('ruling: a natural 20 is a critical hit, and hits whatever the total; a natural 1 is nothing special', () => {
    expect(roll(20, -5, 30)).toMatchObject({ hit: true, critical: true, reason: 'natural-20' });
    expect(roll(1, 14, 15)).toMatchObject({ hit: true, critical: false });
    expect(roll(19, 20, 10)).toMatchObject({ hit: true, critical: false });
  });

  it('bad rolls are a Problem, never a throw', () => {
    for (const n of [0, 21, 2.5, Number.NaN]) expect(resolveDefenseAttack({ attackBonus: 0, defense: 10 }, n)).toMatchObject({ ok: false, problem: { key: 'AttackRollInvalid' } });
    expect(resolveDefenseAttack({ attackBonus: 0, defense: Number.NaN }, 10)).toMatchObject({ ok: false });
  });

  it('"Armour reduces the damage taken from each hit" (never below 0); a critical hit "multiplies the damage dealt according to the weapon attack critical multiplier", Armour after it', () => {
    expect(damageTaken(7, { armour: 3 })).toEqual({ dealt: 7, taken: 4 });
    expect(damageTaken(2, { armour: 3 })).toEqual({ dealt: 2, taken: 0 });
    expect(damageTaken(5, { critical: true, multiplier: 3, armour: 3 })).toEqual({ dealt: 15, taken: 12 });
    expect(damageTaken(5, { critical: true, multiplier: 4 })).toEqual({ dealt: 20, taken: 20 });
    // The multiplier only counts on a critical hit.
    expect(damageTaken(5, { multiplier: 4 })).toEqual({ dealt: 5, taken: 5 });
  });

  it('"some weapon attacks have a critical multiplier of x2, some ... x3, and some ... x4": anything else (not given) is x2 (ruling)', () => {
    expect([2, 3, 4, undefined, 5, 1, '3'].map(criticalMultiplier)).toEqual([2, 3, 4, 2, 2, 2, 2]);
  });

  it('property: more Armour never means more damage taken, and a hit never takes less than 0', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), fc.boolean(), (rolled, a, b, critical) => {
        const lo = damageTaken(rolled, { critical, armour: Math.min(a, b) }).taken;
        const hi = damageTaken(rolled, { critical, armour: Math.max(a, b) }).taken;
        expect(hi).toBeLessThanOrEqual(lo);
        expect(hi).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
