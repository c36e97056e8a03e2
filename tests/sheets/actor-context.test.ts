/**
 * The actor sheets' context (src/apps/sheets/actor-sheet-body.ts) without
 * rendering: what the combat block shows of hit dice, attack routines, AAC0
 * and the items, computed by src/rules and localized; and the monster's
 * number appearing, checked by its data model.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import '../standin/global';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFoundry } from '../standin';
import { registerDataModels, MonsterData } from '../../src/data/index';
import { aac0Table, castingText, hitDiceView, itemLists, routinesView, signed } from '../../src/apps/sheets/actor-sheet-body';

describe.each([13, 14] as const)('actor sheet context, generation %i', (generation) => {
  beforeEach(() => {
    const foundry = installFoundry({ generation, lang: 'lang/en.json' });
    foundry.everyClient(registerDataModels);
  });

  it('hit dice "4+4": attacks as 5 HD, saves as 5, morale +4, 4d8+16 hit points (20–48)', () => {
    expect(hitDiceView('4+4')).toMatchObject({ ok: true, attackRow: '5', saveAs: 5, overall: 5, moraleBonus: '+4', formula: '4d8+16', min: 20, max: 48 });
    expect(hitDiceView('1+1')).toMatchObject({ attackRow: '1+', saveAs: 2, moraleBonus: '+1', formula: '1d8+1' });
    expect(hitDiceView('1-1')).toMatchObject({ attackRow: '1-1', saveAs: 1, moraleBonus: '0', formula: '1d8-1', min: 1, max: 7 });
    expect(hitDiceView('½')).toMatchObject({ attackRow: '½', saveAs: 0.5, formula: '1d4', min: 1, max: 4 });
  });

  it('unparseable hit dice show the localized problem', () => {
    const v = hitDiceView('x');
    expect(v.ok).toBe(false);
    expect(v.problem).toBe('"x" is not hit dice (write e.g. 4, 4+4 or 1/2).');
  });

  it('attack routines as written are parsed into each attack, its count and damage', () => {
    const { routines, problem } = routinesView('MELEE: 2 claws (1d8/1d8) and bite (2d6); MISSILE: 2 longbow arrows (1d6/1d6)');
    expect(problem).toBeNull();
    expect(routines).toHaveLength(2);
    expect(routines[0]).toMatchObject({
      index: 0,
      mode: 'Melee',
      count: '3 attacks',
      attacks: [
        { name: 'claws', count: 2, damage: '1d8/1d8' },
        { name: 'bite', count: 1, damage: '2d6' },
      ],
    });
    expect(routines[1]).toMatchObject({ index: 1, mode: 'Missile', attacks: [{ name: 'longbow arrows', count: 2, damage: '1d6/1d6' }] });
  });

  it('an attack text the parser refuses shows its localized problem', () => {
    const { routines, problem } = routinesView('2 claws (1d8/1d8/1d8)');
    expect(routines).toEqual([]);
    expect(problem).toMatch(/claws/);
    expect(problem).not.toMatch(/^TENSEG\./);
  });

  it('AAC0 17 gives the roll needed by AC, 10 down to -10; "20*" runs the 20s', () => {
    const t = aac0Table('17');
    expect(t.problem).toBeNull();
    expect(t.rows[0]).toEqual({ ac: 10, needed: 7 });
    expect(t.rows.find((r) => r.ac === 0)).toEqual({ ac: 0, needed: 17 });
    expect(t.rows).toHaveLength(21);
    expect(aac0Table('x').problem).not.toMatch(/^TENSEG\./);
  });

  it('items: weapons with speed, length, space and both damage columns; spells by level with casting time; armour; gear', () => {
    const lists = itemLists([
      { id: 'w', name: 'Long sword', type: 'weapon', system: { speed: 5, length: 3.5, space: 3, damage: { small: '1d8', large: '1d12' }, kind: 'melee', equipped: true } },
      { id: 's2', name: 'Web', type: 'spell', system: { level: 2, castingTime: { value: 2, unit: 'segments' }, memorized: 1, expended: 0 } },
      { id: 's1', name: 'Sleep', type: 'spell', system: { level: 1, castingTime: { value: 1, unit: 'rounds' }, memorized: 2, expended: 1 } },
      { id: 'a', name: 'Chain mail', type: 'armor', system: { ac: 5, bonus: 1, equipped: false } },
      { id: 'g', name: 'Rope', type: 'gear', system: { quantity: 2, weight: 10 } },
    ]);
    expect(lists.weapons[0]).toMatchObject({ id: 'w', speed: 5, length: '3.5 ft', space: '3 ft', damage: '1d8 / 1d12', kind: 'Melee', equipped: true, equipLabel: 'Unequip' });
    expect(lists.spellLevels.map((l) => l.label)).toEqual(['Level 1', 'Level 2']);
    expect(lists.spellLevels[0].spells[0]).toMatchObject({ name: 'Sleep', casting: '1 round (10 segments)', remaining: 1, canExpend: true, canRestore: true, canForget: true });
    expect(lists.spellLevels[1].spells[0]).toMatchObject({ name: 'Web', casting: '2 segments', canRestore: false });
    expect(lists.armor[0]).toMatchObject({ ac: 5, bonus: '+1', equipLabel: 'Equip' });
    expect(lists.gear[0]).toMatchObject({ quantity: 2, weight: 10 });
    expect(castingText({ value: 3, unit: 'segments' })).toBe('3 segments');
    expect(signed(-2)).toBe('\u22122');
  });

  it('number appearing: "2d4", "1", "3-12" and blank are accepted, "lots" is refused in words', () => {
    for (const value of ['2d4', '1', '3-12', '', '1d6+1']) expect(() => new MonsterData({ numberAppearing: value } as never)).not.toThrow();
    expect(new MonsterData({} as never).numberAppearing).toBe('');
    expect(() => new MonsterData({ numberAppearing: 'lots' } as never)).toThrow(/"lots" is not a number appearing/);
  });
});
