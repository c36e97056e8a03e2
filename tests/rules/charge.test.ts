/**
 * Charges on the map (issue 13): how far a charger has come step by step
 * (movement.ts chargeProgress), addict's falls-short entry, and the timeline's
 * charge text. Seed 004 footnotes 9 ("Charge can be declared, which increases
 * MV by 100% (indoors) or 33.33% (outdoors)"), 17 ("Speed factor is ignored
 * during a charge; only weapon length is considered") and 19 ("the charger
 * moves 1/10th of their charge MV every segment, and the charger must end the
 * segment at a distance equal to or less than their weapon length in order to
 * attack").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Combatant } from '../../src/rules/model';
import { chargeProgress } from '../../src/rules/movement';
import { addictChargeStart, CHARGE_FALLS_SHORT } from '../../src/rules/procedures/addict';
import { timeline } from '../../src/rules/timeline';
import { attackProblem } from '../../src/rules/flow/attack';
import { d, encounter, expectRefused, give, init, melee, playTo, start, stepOf, surprise } from './flow-helpers';

const en = JSON.parse(readFileSync(new URL('../../lang/en.json', import.meta.url), 'utf8')) as Record<string, string>;
const de = JSON.parse(readFileSync(new URL('../../lang/de.json', import.meta.url), 'utf8')) as Record<string, string>;

const pc = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'party', hp: 10, ...extra });
const foe = (id: string, extra: Partial<Combatant> = {}): Combatant => ({ id, name: id[0].toUpperCase() + id.slice(1), side: 'foes', hp: 10, ...extra });

/** Knight: charge MV 120 ft (12 ft a segment, footnote 19), a 10-ft lance. */
const knight = () => pc('knight', { chargeMovement: 120, weapon: { name: 'Lance', length: 10, speed: 7 } });

function addictRound(distance: number, options: Record<string, boolean | number | string> = {}, who = knight()) {
  const { state, dice } = start('addict', encounter(who, foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)], options);
  give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance }) });
  give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
  return state;
}

const segmentOf = (state: ReturnType<typeof addictRound>, k: number) => state.schedule!.steps[k].segment!;

describe('addict: a charge closes 1/10 of its charge MV every segment (footnote 19)', () => {
  it('closing step by step, never past weapon length, and arriving in the segment the footnote gives', () => {
    const state = addictRound(60);
    const from = addictChargeStart(state, state.declarations.knight, state.encounter.combatants[0])!;
    const arrive = stepOf(state, 'knight', { action: 'charge' });
    // 60 ft, a 10-ft lance: 50 ft to close at 12 ft a segment, 5 segments.
    expect(segmentOf(state, arrive)).toBe(from + 4);
    expect(chargeProgress(state)).toHaveLength(1);
    for (let k = 0; k < arrive; k++) {
      playTo(state, k);
      const [p] = chargeProgress(state);
      const seg = segmentOf(state, k);
      expect(p).toMatchObject({ c: 'knight', target: 'orc', path: 60, arrived: false, short: false });
      expect(p.moved).toBe(seg < from ? 0 : Math.min(50, 12 * (seg - from + 1)));
    }
    playTo(state, arrive);
    expect(chargeProgress(state)[0]).toMatchObject({ moved: 50, arrived: true, short: false });
    expect(attackProblem(state, { t: 'attack', c: 'knight', target: 'orc' })).toBeNull();
  });

  it('a charger struck down before it arrives stops where the blow lands and does not arrive', () => {
    const state = addictRound(60);
    const from = addictChargeStart(state, state.declarations.knight, state.encounter.combatants[0])!;
    const arrive = stepOf(state, 'knight', { action: 'charge' });
    const k = state.schedule!.steps.findIndex((s) => s.segment! >= from + 1);
    expect(k).toBeGreaterThanOrEqual(0);
    expect(k).toBeLessThan(arrive);
    playTo(state, k);
    give(state, { t: 'hit', target: 'knight', amount: 20, by: 'orc' });
    const moved = 12 * (segmentOf(state, k) - from + 1);
    while (state.stage === 'resolve') give(state, { t: 'next' });
    expect(chargeProgress(state)[0]).toMatchObject({ moved, arrived: false });
  });

  it('footnote 9: outdoors the charge MV is MV + 33.33%, indoors + 100% (moved per segment follows it)', () => {
    const runner = pc('knight', { movement: 90, weapon: { length: 5 } });
    const indoors = addictRound(300, {}, runner);
    const outdoors = addictRound(300, { chargeOutdoors: true }, structuredClone(runner));
    const end = (s: typeof indoors) => {
      while (s.stage === 'resolve') give(s, { t: 'next' });
      return chargeProgress(s)[0];
    };
    const start1 = addictChargeStart(indoors, indoors.declarations.knight, runner)!;
    expect(end(indoors).moved).toBeCloseTo(18 * (10 - start1 + 1));
    expect(end(outdoors).moved).toBeCloseTo(12 * (10 - start1 + 1));
  });

  it('falls short: an entry in the last segment (reason addictChargeFallsShort) that does not attack, "falls short: N ft left"', () => {
    const state = addictRound(200);
    const steps = state.schedule!.steps;
    const k = steps.findIndex((s) => s.entries.some((e) => e.combatant === 'knight' && e.reason === CHARGE_FALLS_SHORT));
    expect(k).toBe(steps.length - 1);
    expect(steps[k].segment).toBe(10);
    expect(stepOf(state, 'knight', { action: 'charge' })).toBe(k);
    const from = addictChargeStart(state, state.declarations.knight, state.encounter.combatants[0])!;
    playTo(state, k);
    expect(chargeProgress(state)[0]).toMatchObject({ path: 200, moved: 12 * (10 - from + 1), arrived: false, short: true });
    expectRefused(state, { t: 'attack', c: 'knight', target: 'orc' }, 'AttackNotYourStep');
    const view = timeline(state).steps.find((s) => s.index === k)!;
    expect(view.charges?.[0]).toMatchObject({ combatant: 'knight', key: 'TENSEG.Charge.FallsShort', data: { left: 200 - 12 * (10 - from + 1) } });
  });

  it('the timeline says "closing M of P ft" in the steps the charger moves, then that it arrives', () => {
    const state = addictRound(60);
    const view = timeline(state);
    const lines = view.steps.flatMap((s) => (s.charges ?? []).map((c) => `${c.key}:${c.data.moved}/${c.data.path}`));
    expect(lines.at(-1)).toBe('TENSEG.Charge.Arrives:50/60');
    expect(lines.slice(0, -1).every((l) => l.startsWith('TENSEG.Charge.Closing:'))).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
  });

  it('a combat started under rules revision 2 keeps its old plan: no falls-short entry', () => {
    // Planned from the declarations, as the old engine did.
    const { state: old, dice } = start('addict', encounter(knight(), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)]);
    old.rules = 2;
    give(old, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 200 }) });
    give(old, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
    expect(stepOf(old, 'knight')).toBe(-1);
    while (old.stage === 'resolve') give(old, { t: 'next' });
    expect(chargeProgress(old)[0]).toMatchObject({ short: true, arrived: false });
  });
});

describe('other procedures: nothing before the step the charge acts in, then all of it', () => {
  it('segment-d6: the charge entry is where it arrives', () => {
    const { state, dice } = start('segment-d6', encounter(knight(), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 4)]);
    give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 40 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
    const at = stepOf(state, 'knight', { action: 'charge' });
    expect(at).toBeGreaterThanOrEqual(0);
    if (at > 0) expect(chargeProgress(state)[0]).toMatchObject({ moved: 0, arrived: false });
    playTo(state, at);
    expect(chargeProgress(state)[0]).toMatchObject({ path: 40, moved: 40, arrived: true, short: false });
  });

  it('d12-ascending III.D: a charge farther than the standard rate ("12” (which for our purposes is six squares)": 30 ft) moves it and falls short (d12ChargeTooFar)', () => {
    const { state, dice } = start('d12-ascending', encounter(pc('knight', { movement: 120 }), foe('orc')), [surprise('party', 12), surprise('foes', 12), init('party', 1, 1), init('foes', 1, 6)]);
    give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 50 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
    const at = stepOf(state, 'knight', { action: 'move' });
    expect(at).toBeGreaterThanOrEqual(0);
    playTo(state, at);
    expect(chargeProgress(state)[0]).toMatchObject({ path: 50, moved: 30, arrived: false, short: true });
  });

  it('d12-ascending III.D: a 12” charger closing 25 ft (within six squares) charges and attacks', () => {
    const { state, dice } = start('d12-ascending', encounter(pc('knight', { movement: 120 }), foe('orc')), [surprise('party', 12), surprise('foes', 12), init('party', 1, 1), init('foes', 1, 6)]);
    give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 25 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
    expect(stepOf(state, 'knight', { action: 'move' })).toBe(-1);
    const at = stepOf(state, 'knight', { action: 'charge' });
    playTo(state, at);
    expect(chargeProgress(state)[0]).toMatchObject({ path: 25, moved: 25, arrived: true, short: false });
  });

  it('no round planned: nothing to report', () => {
    const { state } = start('addict', encounter(knight(), foe('orc')), [surprise('party', 5), surprise('foes', 5)]);
    give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 60 }) });
    expect(chargeProgress(state)).toEqual([]);
  });
});

describe('lang', () => {
  it('the charge texts and the falls-short reason in English and German, with the same placeholders', () => {
    for (const key of ['TENSEG.Charge.Closing', 'TENSEG.Charge.Arrives', 'TENSEG.Charge.FallsShort', 'TENSEG.Reason.addictChargeFallsShort', 'TENSEG.Error.AttackOutOfRange']) {
      expect(en[key], key).toBeTypeOf('string');
      expect(de[key], key).toBeTypeOf('string');
      expect((de[key].match(/{[^}]+}/g) ?? []).sort()).toEqual((en[key].match(/{[^}]+}/g) ?? []).sort());
    }
  });
});

describe('high-low: a charge is a fast action (seed 001 step 3: "Parley, Flee, Charge")', () => {
  it('nothing before its step, all of its path from it', () => {
    const { state, dice } = start('high-low', encounter(knight(), foe('orc')), [surprise('party', 5), surprise('foes', 5), init('party', 1, 5), init('foes', 1, 2)]);
    give(state, { t: 'declare', d: d('knight', 'charge', { target: 'orc', distance: 40 }) });
    give(state, { t: 'begin', d: { orc: melee('orc', 'knight') } }, dice);
    const at = stepOf(state, 'knight', { action: 'charge' });
    expect(at).toBeGreaterThanOrEqual(0);
    playTo(state, at);
    expect(chargeProgress(state)[0]).toMatchObject({ path: 40, moved: 40, arrived: true, short: false });
    const view = timeline(state).steps.find((s) => s.index === at)!;
    expect(view.charges?.[0]).toMatchObject({ key: 'TENSEG.Charge.Arrives', data: { name: 'Knight', moved: 40, path: 40, left: 0 } });
  });
});

describe('the timeline view: a player sees another side\'s charge only as it is played', () => {
  it('steps to come carry the charge for its own side only', () => {
    const state = addictRound(60);
    const arrive = stepOf(state, 'knight', { action: 'charge' });
    const count = (viewer: Parameters<typeof timeline>[1]) => timeline(state, viewer).steps.filter((s) => s.index >= state.step && s.charges?.length).length;
    expect(count({ gm: false, sides: ['party'] })).toBeGreaterThan(0);
    expect(count({ gm: false, sides: ['foes'] })).toBeLessThanOrEqual(1);
    playTo(state, arrive);
    expect(timeline(state, { gm: false, sides: ['foes'] }).steps.find((s) => s.index === arrive)?.charges?.[0].key).toBe('TENSEG.Charge.Arrives');
  });
});
