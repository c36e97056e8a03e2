/**
 * The procedures' movement rules (Procedure.movement, src/rules/movement.ts)
 * asked directly: what a round allows and what a move provokes. Each test
 * names the seed passage or the README ruling ("#### Movement on the map").
 */
import { describe, expect, it } from 'vitest';
import type { Combatant, CombatantState } from '../../src/rules/model';
import { feetWithin, movedFeet, type FlowMove, type MovementQuery } from '../../src/rules/movement';
import { moveMeasureOk } from '../../src/rules/flow/moved';
import { d12AscendingProcedure, D12_DEFAULTS } from '../../src/rules/procedures/d12-ascending';
import { standardRateFeet } from '../../src/rules/encumbrance';
import { highLowProcedure, highLowRateFeet } from '../../src/rules/procedures/high-low';
import { CRAWL_FEET, individualSpeedProcedure, speedFeet } from '../../src/rules/procedures/individual-speed';
import { PROCEDURES } from '../../src/rules/procedures/all';
import type { ProcedureOptions } from '../../src/rules/procedure';

const who = (extra: Partial<Combatant> = {}): Combatant => ({ id: 'a', name: 'A', side: 'party', hp: 10, movement: 120, ...extra });
const ok: CombatantState = { hp: 10, condition: 'ok', expended: [] };
const orc: Combatant = { id: 'orc', name: 'Orc', side: 'foes', hp: 10 };

function query<O extends ProcedureOptions>(options: O, extra: Partial<MovementQuery> = {}): MovementQuery<O> {
  return { combatant: who(), state: ok, move: { feet: 0 }, earlier: [], acted: false, casting: false, opponents: new Map([['orc', orc]]), options, ...extra } as MovementQuery<O>;
}

describe('movement.ts helpers', () => {
  it('a MoveMeasure is feet ≥ 0 and ReachPassed entries; feet within a range add up over the round', () => {
    expect(moveMeasureOk({ feet: 10, reach: [{ c: 'orc', feet: 5, startIn: true, endIn: false }] })).toBe(true);
    expect(moveMeasureOk({ feet: Number.NaN })).toBe(false);
    expect(moveMeasureOk({ feet: 5, reach: [{ c: 'orc', feet: 5 }] })).toBe(false);
    const earlier: FlowMove[] = [{ c: 'a', feet: 10, step: 0, reach: [{ c: 'orc', feet: 5, startIn: true, endIn: true }], provoked: [] }];
    expect(movedFeet(earlier)).toBe(10);
    expect(feetWithin('orc', earlier, { feet: 5, reach: [{ c: 'orc', feet: 5, startIn: true, endIn: true }] })).toBe(10);
  });

  it('addict and segment-d6 have no movement rules (the GM\'s); the other three do', () => {
    expect(PROCEDURES.addict.movement).toBeUndefined();
    expect(PROCEDURES['segment-d6'].movement).toBeUndefined();
    expect(['d12-ascending', 'high-low', 'individual-speed'].every((id) => PROCEDURES[id as 'high-low'].movement)).toBe(true);
  });
});

describe('d12-ascending (seed 002, "Movement During the Round")', () => {
  it('"12” (which for our purposes is six squares)": 120 ft stored is 12", 30 ft; the halfling 9" four squares; absent, the seed\'s base', () => {
    expect(standardRateFeet(who(), true)).toBe(30);
    expect(standardRateFeet(who({ movement: 90, small: true }), true)).toBe(20);
    expect(standardRateFeet(who({ movement: undefined }), true)).toBe(30);
    expect(standardRateFeet(who({ movement: undefined, small: true }), true)).toBe(20);
  });

  it('the encumbrance table: heavy 9" (4sq), very heavy 6" (3sq), encumbered 3" (2sq); the halfling "-" is no movement; off: its own rate', () => {
    expect(D12_DEFAULTS.encumbrance).toBe(true);
    expect(standardRateFeet(who({ carried: 60 }), true)).toBe(20);
    expect(standardRateFeet(who({ carried: 100 }), true)).toBe(15);
    expect(standardRateFeet(who({ carried: 200 }), true)).toBe(10);
    expect(standardRateFeet(who({ carried: 200, small: true, movement: 90 }), true)).toBe(0);
    expect(standardRateFeet(who({ carried: 200 }), false)).toBe(30);
  });

  it('"if you\'re ONLY allowed to move 5’ or less in the first place you lose the ability to make a 5’ Step": 5 ft within range then provokes', () => {
    const rules = d12AscendingProcedure.movement!;
    const reach = [{ c: 'orc', feet: 5, startIn: true, endIn: true }];
    const step = rules.check(query(D12_DEFAULTS, { move: { feet: 5, reach }, declaration: { combatant: 'a', action: 'melee', target: 'orc' } }));
    expect(step.provoked).toEqual([]);
    const slow = rules.check(query(D12_DEFAULTS, { combatant: who({ movement: 90, small: true, carried: 200 }), move: { feet: 5, reach }, declaration: { combatant: 'a', action: 'melee', target: 'orc' } }));
    expect(slow.provoked).toEqual([{ by: 'orc', grant: 'opportunity', reason: 'd12AooMoving' }]);
    expect(slow.beyond).toBe('standardRate');
  });

  it('a charger may cover its charge distance (RULING)', () => {
    const v = d12AscendingProcedure.movement!.check(query(D12_DEFAULTS, { move: { feet: 50 }, declaration: { combatant: 'a', action: 'charge', target: 'orc', distance: 60 } }));
    expect(v).toEqual({ allowance: 60, provoked: [] });
  });
});

describe('high-low (seed 001)', () => {
  const options = highLowProcedure.defaults;
  it('the encumbrance option is off by default; on, the rate is no more than the table gives (12" = 120 ft)', () => {
    expect(options.encumbrance).toBe(false);
    expect(highLowRateFeet(who({ carried: 60 }), false)).toBe(120);
    expect(highLowRateFeet(who({ carried: 60 }), true)).toBe(90);
  });

  it('a combatant with no movement rate known: the GM\'s (no allowance) when moving is its major action', () => {
    const v = highLowProcedure.movement!.check(query(options, { combatant: who({ movement: undefined }), move: { feet: 500 }, declaration: { combatant: 'a', action: 'move' } }));
    expect(v).toEqual({ provoked: [] });
  });
});

describe('individual-speed (seed 003, "Speed", Death And Dying, Combat Injuries)', () => {
  const options = individualSpeedProcedure.defaults;
  const rules = individualSpeedProcedure.movement!;
  it('"a Stabilized creature can move at half its movement speed per round"; Broken Shin "move at half speed"', () => {
    expect(rules.check(query(options, { move: { feet: 70 }, state: { ...ok, stabilized: true, condition: 'dying' } }))).toEqual({ allowance: 60, beyond: 'stabilized', provoked: [] });
    expect(rules.check(query(options, { move: { feet: 60 }, state: { ...ok, injuries: [{ round: 1, type: 'blunt', row: 2 }] } }))).toEqual({ allowance: 60, provoked: [] });
    expect(rules.check(query(options, { move: { feet: 65 }, state: { ...ok, injuries: [{ round: 1, type: 'blunt', row: 2 }] } })).beyond).toBe('brokenShin');
  });

  it('"the Incapacitated creature can crawl at a rate of 1 yard per turn"', () => {
    expect(CRAWL_FEET).toBe(3);
    expect(rules.check(query(options, { move: { feet: 5 }, state: { ...ok, condition: 'incapacitated' } })).beyond).toBe('crawl');
  });

  it('"a Dying creature ... cannot both move and take an action": after acting it cannot move; before, moving instead of its action is the GM\'s ruling', () => {
    const dying: CombatantState = { ...ok, condition: 'dying', stabilized: true };
    expect(rules.check(query(options, { move: { feet: 5 }, state: dying, acted: true })).beyond).toBe('dyingActed');
    expect(rules.check(query(options, { move: { feet: 5 }, state: dying, declaration: { combatant: 'a', action: 'melee', target: 'orc' } })).beyond).toBe('dyingMoveOrAct');
    expect(rules.check(query(options, { move: { feet: 5 }, state: dying, declaration: { combatant: 'a', action: 'move' } })).beyond).toBeUndefined();
  });

  it('the encumbrance option (off by default) caps Speed by the table', () => {
    expect(options.encumbrance).toBe(false);
    expect(speedFeet(who({ carried: 100 }), true)).toBe(60);
    expect(speedFeet(who({ carried: 100 }), false)).toBe(120);
  });
});
