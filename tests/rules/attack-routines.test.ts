import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { maxAttacksPerRoutine, parseAttackRoutine, parseAttackRoutines, type AttackRoutine } from '../../src/rules/attack-routines';

function routines(text: string): AttackRoutine[] {
  const r = parseAttackRoutines(text);
  if (!r.ok) throw new Error(`${text}: ${r.problem.key}`);
  return r.value;
}

describe('seed 001 stat-block form "MELEE/MISSILE: <attack> (<damage> …)"', () => {
  it('"MELEE: 2 claws (1d8/1d8) and bite (2d6)" is one melee routine of three attacks', () => {
    const [r, ...rest] = routines('MELEE: 2 claws (1d8/1d8) and bite (2d6)');
    expect(rest).toHaveLength(0);
    expect(r.mode).toBe('melee');
    expect(r.attacks).toEqual([
      { name: 'claws', count: 2, damage: ['1d8', '1d8'] },
      { name: 'bite', count: 1, damage: ['2d6'] },
    ]);
    expect(r.attackCount).toBe(3);
  });

  it('"MISSILE: 2 longbow arrows (1d6/1d6)" is a missile routine ("an orc fires a short bow twice")', () => {
    const [r] = routines('MISSILE: 2 longbow arrows (1d6/1d6)');
    expect(r.mode).toBe('missile');
    expect(r.attacks).toEqual([{ name: 'longbow arrows', count: 2, damage: ['1d6', '1d6'] }]);
  });

  it('reads special damage, a per-routine AAC0 and "plus <special effects>"', () => {
    const [r] = routines('MELEE: bite (1d6 [poison]; AAC0 17) plus paralysis for 1d4 rounds;');
    expect(r.attacks).toEqual([{ name: 'bite', count: 1, damage: ['1d6'], special: 'poison' }]);
    expect(r.aac0).toBe('17');
    expect(r.effects).toBe('paralysis for 1d4 rounds');
  });

  it('several routines are separated by ";" or a new label', () => {
    const both = routines('MELEE: 2 claws (1d8/1d8) and bite (2d6); MISSILE: 2 longbow arrows (1d6/1d6)');
    expect(both.map((r) => r.mode)).toEqual(['melee', 'missile']);
    const noSemicolon = routines('MELEE: sword (1d8) MISSILE: 2 longbow arrows (1d6/1d6)');
    expect(noSemicolon.map((r) => r.mode)).toEqual(['melee', 'missile']);
    expect(noSemicolon[1].attackCount).toBe(2);
  });
});

describe('older forms', () => {
  it('"2 claws 1d4/1d4 and bite 1d8" (damage after the name, no label: melee)', () => {
    const [r] = routines('2 claws 1d4/1d4 and bite 1d8');
    expect(r.mode).toBe('melee');
    expect(r.attacks).toEqual([
      { name: 'claws', count: 2, damage: ['1d4', '1d4'] },
      { name: 'bite', count: 1, damage: ['1d8'] },
    ]);
  });

  it('"claw/claw/bite 1d3/1d3/1d6": a bear\'s "claw/claw/bite routine" (seed 001) as one routine of three', () => {
    const [r] = routines('claw/claw/bite 1d3/1d3/1d6');
    expect(r.attackCount).toBe(3);
    expect(r.attacks).toEqual([
      { name: 'claw', count: 2, damage: ['1d3', '1d3'] },
      { name: 'bite', count: 1, damage: ['1d6'] },
    ]);
  });

  it('one damage for several attacks applies to each; ranges, flat damage, modifiers and "by weapon" are damage', () => {
    expect(routines('2 claws (1d4)')[0].attacks[0].damage).toEqual(['1d4', '1d4']);
    expect(routines('bite 2-8')[0].attacks[0].damage).toEqual(['2-8']);
    expect(routines('touch (1)')[0].attacks[0].damage).toEqual(['1']);
    expect(routines('MELEE: +1 longsword (1d8 + 1)')[0].attacks[0]).toEqual({ name: '+1 longsword', count: 1, damage: ['1d8+1'] });
    expect(routines('spear by weapon')[0].attacks[0]).toEqual({ name: 'spear', count: 1, damage: ['by weapon'] });
    expect(routines('two fists (1d2/1d2), kick (1d4)')[0].attackCount).toBe(3);
  });

  it('empty text is no routine at all', () => {
    expect(routines('')).toEqual([]);
    expect(routines('  ;  ')).toEqual([]);
  });
});

describe('unparseable text is a Problem, never a crash', () => {
  it.each([
    ['2 claws (1d8/1d8/1d8)', 'AttackRoutineCountMismatch'],
    ['claw/claw/bite 1d3/1d3', 'AttackRoutineCountMismatch'],
    ['2 claws and bite', 'AttackRoutineNoDamage'],
    ['hello world', 'AttackRoutineNoDamage'],
    ['MELEE: bite (1d6', 'AttackRoutineUnparseable'],
    ['MELEE/MISSILE: 2 claws (1d8/1d8)', 'AttackRoutineUnparseable'],
    ['bite (1d6; AAC0 banana)', 'AttackRoutineUnparseable'],
    ['bite (fire)', 'AttackRoutineNoDamage'],
  ])('%j → %s', (text, key) => {
    const r = parseAttackRoutines(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problem.key).toBe(key);
      expect(typeof r.problem.data?.text).toBe('string');
    }
  });

  it('any string at all returns a result', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const r = parseAttackRoutines(s);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
    expect(parseAttackRoutines(42).ok).toBe(false);
    expect(parseAttackRoutine('').ok).toBe(false);
  });

  it('counts always match the damage list', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 12 }), (n, faces) => {
        const [r] = routines(`${n} claws (1d${faces})`);
        expect(r.attacks[0].damage).toHaveLength(n);
        expect(r.attackCount).toBe(n);
      }),
    );
  });
});

describe('maxAttacksPerRoutine', () => {
  it('is the largest routine of the text, 0 when unparseable', () => {
    expect(maxAttacksPerRoutine('MELEE: 2 claws (1d8/1d8) and bite (2d6); MISSILE: 2 longbow arrows (1d6/1d6)')).toBe(3);
    expect(maxAttacksPerRoutine('nonsense')).toBe(0);
  });
});
