/**
 * Issue 28, deliver 1: who can act is decided by the engine for every
 * procedure (src/rules/flow/acting.ts, rules revision 5). A routed combatant
 * may only flee (seed 002, Withdrawal Tactics: "Disengaging forces do not
 * fight as they fall back"; "Flee in panic ... Opponents may take an AoO at
 * your back"); a surrendered one does nothing ("Surrender: ... throw down
 * your weapon, put up your hands"); the dead and the fled do nothing. Each
 * refusal is in words (a TENSEG.Error message), and the timeline strikes the
 * declaration with its reason.
 */
import { describe, expect, it } from 'vitest';
import { PROCEDURE_IDS } from '../../src/rules/model';
import { timeline } from '../../src/rules/timeline';
import { PROCEDURES } from '../../src/rules/procedures/all';
import { midRoundProblem } from '../../src/rules/flow';
import { expectRefused, give, melee } from './flow-helpers';
import { attackStepOf, orcFight, playTo, STEADY, toNextRound } from './act-helpers';

const attack = (c: string, target: string) => ({ t: 'attack' as const, c, target });

describe.each(PROCEDURE_IDS)('%s: who can act', (procedure) => {
  it('a routed orc strikes nobody: its attack is refused ("routed"), its entry cannot act, and the timeline strikes it with the reason', () => {
    const state = orcFight(procedure);
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, STEADY);
    // Its morale breaks before its blow (the consequence a failed check applies: CombatantState.routed).
    state.states.orc.routed = true;
    const k = attackStepOf(state, 'orc');
    expect(k).toBeGreaterThanOrEqual(0);
    if (k > state.step) playTo(state, k);
    expectRefused(state, attack('orc', 'fighter'), 'ActRefusedRouted');
    const view = timeline(state);
    expect(view.combatants.find((c) => c.id === 'orc')?.struck).toBe('routed');
    // The entry opened after it routed: it cannot act, struck with its reason.
    if (k > 0) {
      const entry = view.steps.find((s) => s.index === k)?.entries.find((e) => e.combatant === 'orc');
      expect(entry).toMatchObject({ outcome: 'cannot-act', struck: 'routed' });
    }
    // Others may still strike it: a routed orc has not fallen.
    const f = attackStepOf(state, 'fighter');
    if (f >= state.step) {
      playTo(state, f);
      give(state, attack('fighter', 'orc2'));
    }
  });

  it('"same as last round" does not carry a routed orc\'s attack; it may declare only flight', () => {
    const state = orcFight(procedure);
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, STEADY);
    toNextRound(state);
    state.states.orc.routed = true;
    state.declarations.orc = melee('orc', 'fighter');
    give(state, { t: 'begin' }, STEADY);
    // The begin re-checks what was carried: the routed orc's attack is not planned.
    expect(state.declarations.orc).toBeUndefined();
    expect(state.schedule?.steps.some((s) => s.entries.some((e) => e.combatant === 'orc' && e.action === 'melee'))).toBe(false);
    toNextRound(state);
    state.states.orc.routed = true;
    expect(state.declarations.orc).toBeUndefined();
    expectRefused(state, { t: 'declare', d: melee('orc', 'fighter') }, 'ActRefusedRouted');
    expect(timeline(state).combatants.find((c) => c.id === 'orc')).toMatchObject({ struck: 'routed', mayDeclare: true });
  });

  it('a surrendered orc neither acts nor is struck', () => {
    const state = orcFight(procedure);
    state.states.orc.surrendered = true;
    expectRefused(state, { t: 'declare', d: melee('orc', 'fighter') }, 'ActRefusedSurrendered');
    expectRefused(state, { t: 'declare', d: melee('fighter', 'orc') }, 'DeclarationTargetFallen');
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
    give(state, { t: 'begin', d: { orc2: melee('orc2', 'fighter') } }, STEADY);
    playTo(state, attackStepOf(state, 'fighter'));
    expectRefused(state, attack('fighter', 'orc'), 'AttackTargetFallenSurrendered');
    expectRefused(state, attack('orc', 'fighter'), 'ActRefusedSurrendered');
    expect(timeline(state).combatants.find((c) => c.id === 'orc')).toMatchObject({ struck: 'surrendered', mayDeclare: false });
  });

  it('a dead orc is refused in words, and nobody strikes it', () => {
    const state = orcFight(procedure);
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, STEADY);
    give(state, { t: 'hit', target: 'orc', amount: 100 });
    expect(state.states.orc.condition).toBe('dead');
    // A later step (in the step it fell in, it still acts: README ruling, simultaneous actions).
    const last = (state.schedule?.steps.length ?? 1) - 1;
    expect(last).toBeGreaterThan(0);
    playTo(state, last);
    expectRefused(state, attack('orc', 'fighter'), 'ActRefusedDead');
    expectRefused(state, attack('fighter', 'orc'), 'AttackTargetFallenDead');
    expect(timeline(state).combatants.find((c) => c.id === 'orc')?.struck).toBe('dead');
  });

  it('a combat started under the rules before (revision 4) keeps them: a routed orc still strikes', () => {
    const state = orcFight(procedure);
    state.rules = 4;
    give(state, { t: 'declare', d: melee('fighter', 'orc2') });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, STEADY);
    state.states.orc.routed = true;
    const k = attackStepOf(state, 'orc');
    if (k > state.step) playTo(state, k);
    // individual-speed decided routed monsters out of the fight before (its own canAct: "able to fight" = not routed).
    if (procedure !== 'individual-speed') give(state, attack('orc', 'fighter'));
    expect(timeline(state).combatants.find((c) => c.id === 'orc')?.struck).toBeUndefined();
  });
});

describe.each(PROCEDURE_IDS.filter((id) => !!PROCEDURES[id].releaseHeld))('%s: a routed combatant releases nothing', (procedure) => {
  it('its held (prepared) action is refused in words once its morale broke', () => {
    const state = orcFight(procedure);
    give(state, { t: 'declare', d: { combatant: 'fighter', action: 'wait' } });
    give(state, { t: 'begin', d: { orc: melee('orc', 'fighter'), orc2: melee('orc2', 'fighter') } }, STEADY);
    const k = (state.schedule?.steps ?? []).findIndex((s) => s.entries.some((e) => e.combatant === 'fighter' && e.action === 'wait'));
    expect(k).toBeGreaterThanOrEqual(0);
    playTo(state, k);
    const release = { t: 'release' as const, c: 'fighter', d: melee('fighter', 'orc') };
    // Before it routs, the release is taken (on a copy).
    expect(midRoundProblem(state, release)).toBeNull();
    state.states.fighter.routed = true;
    expectRefused(state, release, 'ActRefusedRouted');
  });
});
