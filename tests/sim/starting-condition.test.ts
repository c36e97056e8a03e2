/**
 * A scenario's combatants start in the condition their hit points give them
 * by the procedure's own damage rules, or in the one the file gives
 * (`condition`, README "The scenario file"), checked: an unknown condition or
 * one the hit points contradict names its field, and nothing is run.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/rules/model';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { validateScenario } from '../../src/sim/scenario';
import { playScenario } from './play-scenario';

/** An addict fight: the party's wounded scout at `scout` hit points, nobody surprised, one round. */
function scenario(scout: Record<string, unknown>, joiner?: Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = {
    procedure: 'addict',
    sides: [
      { id: 'party', name: 'Party' },
      { id: 'orcs', name: 'Orcs' },
    ],
    combatants: [
      { id: 'fighter', side: 'party', hp: 10 },
      { id: 'scout', side: 'party', ...scout },
      { id: 'orc', side: 'orcs', hp: 6 },
    ],
    declarations: { 1: { fighter: { action: 'melee', target: 'orc' }, orc: { action: 'melee', target: 'fighter' } } },
    dice: [
      { purpose: 'surprise', side: 'party', result: 5 },
      { purpose: 'surprise', side: 'orcs', result: 5 },
      { purpose: 'initiative', side: 'party', round: 1, result: 4 },
      { purpose: 'initiative', side: 'orcs', round: 1, result: 2 },
    ],
    rounds: 1,
  };
  if (joiner) raw.joins = [{ round: 1, step: 0, combatant: { id: 'wolf', side: 'orcs', ...joiner } }];
  return raw;
}

function problemsOf(raw: Record<string, unknown>): Problem[] {
  const r = validateScenario(raw, PROCEDURES);
  if (r.ok) throw new Error('expected problems, the scenario validated');
  return r.problems;
}

const play = (raw: Record<string, unknown>) => playScenario(raw, 1);

describe('a scenario combatant at 0 hit points or below', () => {
  it('addict: at -3 it starts dying, not dead, and bleeds ("Any combatants who had negative hit points at the start of the round lose 1 hit point")', () => {
    const log = play(scenario({ hp: -3 }));
    expect(log.rounds[0].end?.events).toContainEqual({ kind: 'bleed', combatant: 'scout', amount: 1 });
    expect(log.states.scout).toMatchObject({ hp: -4, condition: 'dying' });
  });
});

describe('`condition`: a starting condition the hit points do not tell', () => {
  it('fled: the combatant is out of the fight from the start', () => {
    const log = play(scenario({ hp: 8, condition: 'fled' }));
    expect(log.states.scout.condition).toBe('fled');
  });

  it('an unknown condition names its field and the conditions there are; a slip gets a suggestion', () => {
    expect(problemsOf(scenario({ hp: 8, condition: 'asleep' }))).toEqual([
      { key: 'UnknownValue', path: 'combatants[1].condition', data: { field: 'condition', value: 'asleep', allowed: 'ok, incapacitated, dying, dead, fled' } },
    ]);
    expect(problemsOf(scenario({ hp: 8, condition: 'fledd' }))[0]).toMatchObject({ key: 'UnknownValueDidYouMean', data: { suggestion: 'fled' } });
  });

  it('a condition the hit points contradict names its field, for a combatant and for a joiner', () => {
    expect(problemsOf(scenario({ hp: -3, condition: 'ok' }))).toEqual([
      { key: 'StartingConditionImpossible', path: 'combatants[1].condition', data: { name: 'scout', condition: 'ok', rule: 'dying' } },
    ]);
    expect(problemsOf(scenario({ hp: 8 }, { hp: 7, condition: 'dying' }))).toEqual([
      { key: 'StartingConditionImpossible', path: 'joins[0].combatant.condition', data: { name: 'wolf', condition: 'dying', rule: 'ok' } },
    ]);
  });
});
