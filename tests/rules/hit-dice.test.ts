import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SequenceDice } from '../../src/rules/dice';
import {
  attackBasis,
  attackHitDice,
  hitPointFormula,
  hitPointRange,
  moraleBonus,
  overallHitDice,
  parseHitDice,
  rollHitPoints,
  saveHitDice,
  type HitDice,
} from '../../src/rules/hit-dice';

function hd(text: string): HitDice {
  const r = parseHitDice(text);
  if (!r.ok) throw new Error(`could not parse ${text}: ${r.problem.key}`);
  return r.value;
}

describe('parsing hit dice (seed 001: "1+1 HD or 4+4 HD or even 8+2 HD")', () => {
  it.each([
    ['4+4', 4, 4, '4+4'],
    ['8+2', 8, 2, '8+2'],
    ['1-1', 1, -1, '1-1'],
    ['12', 12, 0, '12'],
    [' 4 + 4 HD', 4, 4, '4+4'],
    ['HD 3+1', 3, 1, '3+1'],
    ['½', 0.5, 0, '½'],
    ['1/2', 0.5, 0, '½'],
    ['1\u22121', 1, -1, '1-1'],
  ])('reads %j as %d dice %d', (text, dice, modifier, normalized) => {
    const r = hd(text);
    expect(r.dice).toBe(dice);
    expect(r.modifier).toBe(modifier);
    expect(r.text).toBe(normalized);
  });

  it.each(['', 'four', '4+', '+4', '0', '4d8', '4++4', '½+1', '1000', 'HD'])('refuses %j with a HitDiceInvalid problem', (text) => {
    const r = parseHitDice(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem.key).toBe('HitDiceInvalid');
      expect(r.problem.data?.value).toBe(text);
    }
  });

  it('refuses non-string input without throwing', () => {
    for (const v of [null, undefined, {}, -3, 2.5, NaN]) expect(parseHitDice(v).ok).toBe(false);
    expect(parseHitDice(6).ok).toBe(true);
  });

  it('normalized text parses back to the same hit dice', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: -20, max: 20 }), (dice, modifier) => {
        const text = modifier === 0 ? `${dice}` : `${dice}${modifier > 0 ? '+' : '-'}${Math.abs(modifier)}`;
        const once = hd(text);
        expect(hd(once.text)).toEqual(once);
        expect(once).toEqual({ text, dice, modifier });
      }),
    );
  });
});

describe('attack hit dice (seed 001 "Attack Rolls")', () => {
  it('"+1-3 uses the \'+\' rating … (e.g. 1+1 HD = 1+ in the table)"', () => {
    expect(attackHitDice(hd('1+1'))).toEqual({ dice: 1, plus: true, label: '1+' });
    expect(attackHitDice(hd('8+2'))).toEqual({ dice: 8, plus: true, label: '8+' });
    expect(attackHitDice(hd('3+3'))).toEqual({ dice: 3, plus: true, label: '3+' });
  });

  it('"+4 or higher adds another hit die … (e.g. 5+5 HD = 6 HD)"', () => {
    expect(attackHitDice(hd('5+5'))).toEqual({ dice: 6, plus: false, label: '6' });
    expect(attackHitDice(hd('4+4'))).toEqual({ dice: 5, plus: false, label: '5' });
  });

  it('"to a maximum of +1 HD": a huge bonus still adds only one die', () => {
    expect(attackHitDice(hd('3+12')).dice).toBe(4);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 100 }), (dice, mod) => {
        const a = attackHitDice(hd(`${dice}+${mod}`));
        expect(a.dice - dice).toBeLessThanOrEqual(1);
        expect(a.dice).toBeGreaterThanOrEqual(dice);
      }),
    );
  });

  it('plain and negative hit dice use their own row', () => {
    expect(attackHitDice(hd('6'))).toEqual({ dice: 6, plus: false, label: '6' });
    expect(attackHitDice(hd('1-1'))).toEqual({ dice: 1, plus: false, label: '1-1' });
  });
});

describe('save and overall hit dice (seed 001 "Saving Throws", "Overall Creature Hit Dice")', () => {
  it('"+1-4=+1; +5-8=+2; +9-12=+3; +13-16=+4"', () => {
    expect(saveHitDice(hd('2+1'))).toBe(3);
    expect(saveHitDice(hd('2+4'))).toBe(3);
    expect(saveHitDice(hd('2+5'))).toBe(4);
    expect(saveHitDice(hd('2+8'))).toBe(4);
    expect(saveHitDice(hd('2+9'))).toBe(5);
    expect(saveHitDice(hd('2+13'))).toBe(6);
    expect(saveHitDice(hd('2+16'))).toBe(6);
  });

  it('"(e.g. 5+5 HD = 7 HD or 7-8 in the table)" — saves differ from attacks (6 HD)', () => {
    expect(saveHitDice(hd('5+5'))).toBe(7);
    expect(attackHitDice(hd('5+5')).dice).toBe(6);
  });

  it('"No maximum": every further 4 points of bonus adds one more die', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 80 }), (dice, mod) => {
        expect(saveHitDice(hd(`${dice}+${mod + 4}`))).toBe(saveHitDice(hd(`${dice}+${mod}`)) + 1);
      }),
    );
  });

  it('"use the creature\'s saving throw hit dice to determine overall hit dice"', () => {
    for (const t of ['1+1', '4+4', '5+5', '8+2', '3', '1-1', '½']) expect(overallHitDice(hd(t))).toBe(saveHitDice(hd(t)));
    expect(overallHitDice(hd('5+5'))).toBe(7);
  });

  it('ruling: a negative modifier neither adds nor removes save dice', () => {
    expect(saveHitDice(hd('1-1'))).toBe(1);
    expect(saveHitDice(hd('½'))).toBe(0.5);
  });
});

describe('hit points (seed 001: "4+4 HD will have 4d8+16 hit points")', () => {
  it('the bonus is extra hit points per hit die', () => {
    expect(hitPointFormula(hd('4+4'))).toBe('4d8+16');
    expect(hitPointFormula(hd('8+2'))).toBe('8d8+16');
    expect(hitPointFormula(hd('1+1'))).toBe('1d8+1');
    expect(hitPointFormula(hd('6'))).toBe('6d8');
  });

  it('ruling: 1-1 is 1d8-1 and ½ is 1d4', () => {
    expect(hitPointFormula(hd('1-1'))).toBe('1d8-1');
    expect(hitPointFormula(hd('½'))).toBe('1d4');
  });

  it('rolls NdM through the dice and adds N×bonus; at least 1 hp', () => {
    // 4+4: the dice total of 4d8 is 10 → 10 + 16.
    expect(rollHitPoints(hd('4+4'), new SequenceDice([10]))).toBe(26);
    // 1-1 rolling a 1 would be 0 hp: a creature keeps at least 1.
    expect(rollHitPoints(hd('1-1'), new SequenceDice([1]))).toBe(1);
    expect(rollHitPoints(hd('½'), new SequenceDice([3]))).toBe(3);
  });

  it('the range matches the formula: 4+4 gives 20..48', () => {
    expect(hitPointRange(hd('4+4'))).toEqual({ min: 20, max: 48 });
  });
});

describe('morale (seed 001: "a bonus to morale checks equal to the enhanced hit dice bonus")', () => {
  it('is the +N', () => {
    expect(moraleBonus(hd('4+4'))).toBe(4);
    expect(moraleBonus(hd('8+2'))).toBe(2);
    expect(moraleBonus(hd('6'))).toBe(0);
  });
  it('ruling: a negative modifier is no bonus and no penalty', () => {
    expect(moraleBonus(hd('1-1'))).toBe(0);
  });
});

describe('hit dice versus class level (seed 001 "Hit Dice": "use the higher of the two")', () => {
  it('racial hit dice are used unless the class level exceeds them', () => {
    expect(attackBasis(hd('2'), 1)).toEqual({ basis: 'hit-dice', value: 2 });
    expect(attackBasis(hd('2'), 2)).toEqual({ basis: 'hit-dice', value: 2 });
    expect(attackBasis(hd('2'), 5)).toEqual({ basis: 'class', value: 5 });
    expect(attackBasis(hd('2'))).toEqual({ basis: 'hit-dice', value: 2 });
  });
  it('compares with the attack row, so 4+4 (attacks as 5 HD) beats level 5 only at level 6', () => {
    expect(attackBasis(hd('4+4'), 5)).toEqual({ basis: 'hit-dice', value: 5 });
    expect(attackBasis(hd('4+4'), 6)).toEqual({ basis: 'class', value: 6 });
  });
});
