/**
 * Ranges on the map (issue 13, src/rules/range.ts): missile range bands,
 * spell ranges as the packs write them, the attack refused past long range,
 * and the range modifiers (README rulings, "Charges and ranges on the map":
 * the seeds give no range penalties; distance is "center-to-center", seed 001
 * "Measuring Distance").
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missileModifiers } from '../../src/rules/attack';
import { attackProblem } from '../../src/rules/flow/attack';
import type { Combatant } from '../../src/rules/model';
import { missileRangeBand } from '../../src/rules/range';
import { RANGE_MODIFIERS } from '../../src/rules/attack';
import { spellInRange, spellRangeFeet } from '../../src/rules/spell-range';
import { readSources } from '../packs/sources';
import { d, encounter, expectRefused, give, init, melee, start, surprise } from './flow-helpers';

const bow = { short: 50, medium: 100, long: 150 };

describe('missileRangeBand', () => {
  it('short up to short, medium up to medium, long up to long, beyond past it (centre to centre, seed 001)', () => {
    expect(missileRangeBand(0, bow)).toBe('short');
    expect(missileRangeBand(50, bow)).toBe('short');
    expect(missileRangeBand(50.5, bow)).toBe('medium');
    expect(missileRangeBand(100, bow)).toBe('medium');
    expect(missileRangeBand(150, bow)).toBe('long');
    expect(missileRangeBand(151, bow)).toBe('beyond');
  });

  it('a weapon without ranges (absent, all 0 as the packs\' melee weapons, not numbers) is not checked', () => {
    expect(missileRangeBand(30, undefined)).toBeNull();
    expect(missileRangeBand(30, { short: 0, medium: 0, long: 0 })).toBeNull();
    expect(missileRangeBand(30, { short: 10 } as never)).toBeNull();
    expect(missileRangeBand(Number.NaN, bow)).toBeNull();
  });
});

describe('spellRangeFeet: every range form the spell packs use', () => {
  it('"0" is the caster itself, "touch", "30 ft", "10 ft/level", "60 ft + 10 ft/level", "10 ft + 2.5 ft/level", inches at 10 ft', () => {
    expect(spellRangeFeet('0', 5)).toBe('self');
    expect(spellRangeFeet('touch', 5)).toBe('touch');
    expect(spellRangeFeet('30 ft', 5)).toBe(30);
    expect(spellRangeFeet('10 ft/level', 5)).toBe(50);
    expect(spellRangeFeet('60 ft + 10 ft/level', 5)).toBe(110);
    expect(spellRangeFeet('10 ft + 2.5 ft/level', 4)).toBe(20);
    expect(spellRangeFeet('12"', 1)).toBe(120);
    expect(spellRangeFeet('6" + 1"/level', 3)).toBe(90);
  });

  it('unreadable, or per level with no level: null (not checked)', () => {
    expect(spellRangeFeet('sight', 3)).toBeNull();
    expect(spellRangeFeet('', 3)).toBeNull();
    expect(spellRangeFeet(undefined, 3)).toBeNull();
    expect(spellRangeFeet('10 ft/level')).toBeNull();
    expect(spellRangeFeet('60 ft', undefined)).toBe(60);
  });

  it('reads the range of every spell in packs/_source/spells', () => {
    const spells = readSources(join(process.cwd(), 'packs/_source/spells')).filter((s) => s.doc.type === 'spell');
    expect(spells.length).toBeGreaterThan(60);
    const forms = new Set<string>();
    for (const { file, doc } of spells) {
      const text = String(doc.system?.range ?? '');
      forms.add(text.replace(/\d+(\.\d+)?/g, 'N'));
      const feet = spellRangeFeet(text, 7);
      expect(feet, `${file}: ${text}`).not.toBeNull();
      if (typeof feet === 'number') expect(feet, `${file}: ${text}`).toBeGreaterThan(0);
    }
    // The forms the brief names are all there.
    for (const f of ['N', 'touch', 'N ft', 'N ft/level', 'N ft + N ft/level']) expect(forms).toContain(f);
  });
});

describe('spellInRange', () => {
  it('within the range at the caster level; touch an adjacent square (5 ft); "0" not checked', () => {
    expect(spellInRange(110, '60 ft + 10 ft/level', 5)).toBe(true);
    expect(spellInRange(111, '60 ft + 10 ft/level', 5)).toBe(false);
    expect(spellInRange(5, 'touch', 1)).toBe(true);
    expect(spellInRange(10, 'touch', 1)).toBe(false);
    expect(spellInRange(30, '0', 1)).toBeNull();
    expect(spellInRange(30, 'line of sight', 1)).toBeNull();
  });
});

describe('missileModifiers with a range band (RULING: short 0, medium −2, long −5, an option, default on)', () => {
  it('adds the band\'s modifier, none at short, none when turned off or without a band', () => {
    expect(RANGE_MODIFIERS).toEqual({ short: 0, medium: -2, long: -5 });
    expect(missileModifiers(1, 0, false, 'long')).toEqual([{ source: 'missile', value: 1 }, { source: 'range', value: -5 }]);
    expect(missileModifiers(0, 0, false, 'medium')).toEqual([{ source: 'range', value: -2 }]);
    expect(missileModifiers(0, 0, false, 'short')).toEqual([]);
    expect(missileModifiers(0, 0, false, 'long', false)).toEqual([]);
    expect(missileModifiers(0, 2, true)).toEqual([{ source: 'weapon', value: 2 }]);
  });
});

describe('the attack input\'s distance: a missile attack past long range is refused (AttackOutOfRange)', () => {
  const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
  const foe = (id: string): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10 });
  const shortBow = { name: 'Short bow', missile: true, rate: 2, range: bow };

  function round() {
    const { state, dice } = start('segment-d6', encounter(pc('archer', { weapon: shortBow }), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 6), init('foes', 1, 1)]);
    give(state, { t: 'declare', d: d('archer', 'missile', { target: 'orc' }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'archer') } }, dice);
    while (!state.schedule!.steps[state.step].entries.some((e) => e.combatant === 'archer')) give(state, { t: 'next' });
    return state;
  }

  it('within long range, or no distance given: allowed; past it: refused, nothing recorded', () => {
    const state = round();
    expect(attackProblem(state, { t: 'attack', c: 'archer', target: 'orc', distance: 150 })).toBeNull();
    expect(attackProblem(state, { t: 'attack', c: 'archer', target: 'orc' })).toBeNull();
    expectRefused(state, { t: 'attack', c: 'archer', target: 'orc', distance: 155 }, 'AttackOutOfRange');
    expect(attackProblem(state, { t: 'attack', c: 'archer', target: 'orc', distance: 155 })).toEqual({ key: 'AttackOutOfRange', data: { name: 'Archer', distance: 155, long: 150 } });
    expectRefused(state, { t: 'attack', c: 'archer', target: 'orc', distance: -1 }, 'MalformedRequest');
    give(state, { t: 'attack', c: 'archer', target: 'orc', distance: 120 });
    expect(state.attacks).toHaveLength(1);
  });
});
