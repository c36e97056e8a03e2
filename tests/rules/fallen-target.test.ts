/**
 * Issue 28, deliver 2: a fallen target (src/rules/flow/retarget.ts, rules
 * revision 5). Nobody is struck after falling; "same as last round" never
 * carries a fallen target; when an attacker's target falls before its blow,
 * the attack waits for its owner's choice — another standing opponent, hold,
 * or nothing (the `retarget` input) — RULING recorded in retarget.ts.
 */
import { describe, expect, it } from 'vitest';
import { PROCEDURE_IDS } from '../../src/rules/model';
import { timeline } from '../../src/rules/timeline';
import { expectRefused, give, melee } from './flow-helpers';
import { attackStepOf, orcFight, playTo, STEADY, toNextRound } from './act-helpers';

const attack = (c: string, target: string) => ({ t: 'attack' as const, c, target });

/** Round 1 planned: the fighter attacks the orc, the orcs the fighter; the orc dies before the fighter's blow. */
function orcFallsFirst(procedure: (typeof PROCEDURE_IDS)[number]) {
  const state = orcFight(procedure);
  give(state, { t: 'declare', d: melee('fighter', 'orc') });
  give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, STEADY);
  // Felled by someone else (a spell, an ally): the GM's damage, before the fighter's step.
  give(state, { t: 'hit', target: 'orc', amount: 100 });
  expect(state.states.orc.condition).toBe('dead');
  playTo(state, attackStepOf(state, 'fighter'));
  return state;
}

describe.each(PROCEDURE_IDS)('%s: a fallen target', (procedure) => {
  it('the attack waits for its owner: a blow at the dead orc is refused, one elsewhere waits until a choice is made', () => {
    const state = orcFallsFirst(procedure);
    expectRefused(state, attack('fighter', 'orc'), 'AttackTargetFallenDead');
    expectRefused(state, attack('fighter', 'orc2'), 'AttackWaitsForChoice');
    expect(timeline(state).combatants.find((c) => c.id === 'fighter')?.waiting).toBe('orc');
    // The choice: a standing opponent, not the fallen one, not itself, not an ally; malformed refused.
    expectRefused(state, { t: 'retarget', c: 'fighter', choice: 'target', target: 'orc' }, 'RetargetTargetInvalid');
    expectRefused(state, { t: 'retarget', c: 'fighter', choice: 'target', target: 'fighter' }, 'RetargetTargetInvalid');
    expectRefused(state, { t: 'retarget', c: 'fighter', choice: 'target' }, 'MalformedRequest');
    expectRefused(state, { t: 'retarget', c: 'orc2', choice: 'none' }, 'RetargetNotNeeded');
    // The dead orc chooses nothing — unless felled in this very step, where it still acts (README ruling, simultaneous actions).
    const sameStep = state.hits.some((h) => h.target === 'orc' && h.step === state.step);
    expectRefused(state, { t: 'retarget', c: 'orc', choice: 'none' }, sameStep ? 'RetargetNotNeeded' : 'ActRefusedDead');
    give(state, { t: 'retarget', c: 'fighter', choice: 'target', target: 'orc2' });
    expect(timeline(state).combatants.find((c) => c.id === 'fighter')?.waiting).toBeUndefined();
    expect(give(state, attack('fighter', 'orc2')).attack).toMatchObject({ c: 'fighter', target: 'orc2', as: 'schedule' });
  });

  it('an attacker felled in its own step still chooses, and strikes (README ruling, simultaneous actions)', () => {
    const state = orcFallsFirst(procedure);
    give(state, { t: 'hit', target: 'fighter', amount: 100 });
    expect(state.states.fighter.condition).toBe('dead');
    give(state, { t: 'retarget', c: 'fighter', choice: 'target', target: 'orc2' });
    give(state, attack('fighter', 'orc2'));
  });

  it('"same as last round" does not carry an attack at the dead orc', () => {
    const state = orcFallsFirst(procedure);
    give(state, { t: 'retarget', c: 'fighter', choice: 'none' });
    expectRefused(state, attack('fighter', 'orc2'), 'NoAttackLeft');
    toNextRound(state);
    expect(state.declarations.fighter).toBeUndefined();
    expect(state.declarations.orc2).toEqual(melee('orc2', 'fighter'));
    expectRefused(state, { t: 'declare', d: melee('fighter', 'orc') }, 'DeclarationTargetFallen');
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
  });

  it('a combat started under the rules before (revision 4) keeps them: the dead orc is struck, its attack carried on', () => {
    const state = orcFight(procedure);
    state.rules = 4;
    give(state, { t: 'declare', d: melee('fighter', 'orc') });
    give(state, { t: 'begin', d: { orc2: melee('orc2', 'fighter') } }, STEADY);
    give(state, { t: 'hit', target: 'orc', amount: 100 });
    playTo(state, attackStepOf(state, 'fighter'));
    give(state, attack('fighter', 'orc'));
    expectRefused(state, { t: 'retarget', c: 'fighter', choice: 'none' }, 'RetargetNotInRules');
    toNextRound(state);
    expect(state.declarations.fighter).toEqual(melee('fighter', 'orc'));
  });
});

describe('segment-d6: hold', () => {
  it('an attacker whose target fell may hold: one attack at a standing target later in the round', () => {
    const state = orcFallsFirst('segment-d6');
    give(state, { t: 'retarget', c: 'fighter', choice: 'hold' });
    expect(give(state, attack('fighter', 'orc2')).attack).toMatchObject({ as: 'held' });
    expectRefused(state, attack('fighter', 'orc2'), 'NoAttackLeft');
  });
});
