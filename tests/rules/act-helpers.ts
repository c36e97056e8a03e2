/**
 * A small fight every procedure can play (issue 28's tests: who can act, a
 * fallen target): a fighter against two orcs, nobody surprised, and dice
 * that answer every roll the same way.
 */
import { expect } from 'vitest';
import type { Dice, DieRequest } from '../../src/rules/dice';
import { startFlow, type FlowState } from '../../src/rules/flow';
import { RulesError, type Combatant, type ProcedureId } from '../../src/rules/model';
import { encounter, give } from './flow-helpers';

/** Surprise rolls their highest (nobody surprised); initiative a fixed die per side or combatant; anything else its middle. */
export const STEADY: Dice = {
  roll(r: DieRequest): number {
    if (r.purpose === 'surprise') return r.count * r.faces;
    if (r.purpose === 'initiative') return Math.min(r.count * r.faces, r.side === 'party' ? 4 : r.side === 'foes' ? 2 : r.combatant === 'fighter' ? 3 : 5 * r.count);
    return Math.ceil((r.count * (r.faces + 1)) / 2);
  },
};

const fighter = (id: string, side: string, hp: number, kind: 'character' | 'monster', name: string): Combatant => ({
  id,
  name,
  side,
  kind,
  hp,
  maxHp: hp,
  strength: 10,
  woundPoints: hp,
  stress: 2,
  className: 'fighter',
  level: 1,
  hitDice: '1',
  weapon: { name: 'Sword', speed: 5, length: 3 },
});

/** Fighter (party) against Orc and Orc 2 (foes), in round 1's declarations. */
export function orcFight(procedure: ProcedureId): FlowState {
  const enc = encounter(fighter('fighter', 'party', 30, 'character', 'Fighter'), fighter('orc', 'foes', 6, 'monster', 'Orc'), fighter('orc2', 'foes', 30, 'monster', 'Orc 2'));
  const started = startFlow(procedure, {}, enc, STEADY);
  if (!started.ok) throw new RulesError(started.problem);
  const state = started.state;
  // Past any surprise phase nobody was surprised in.
  for (let guard = 0; state.round < 1 || state.stage !== 'declare'; guard++) {
    if (guard > 50) throw new Error('no round 1');
    give(state, { t: 'next' }, STEADY);
  }
  return state;
}

/** The step index where `id` has an attack entry, from the step being played on (-1: none). */
export function attackStepOf(state: FlowState, id: string): number {
  const steps = state.schedule?.steps ?? [];
  for (let k = state.step; k < steps.length; k++) {
    if (steps[k].entries.some((e) => e.combatant === id && (e.kind === 'action' || e.kind === 'routine') && (e.action === 'melee' || e.action === 'flee'))) return k;
  }
  return -1;
}

/** Next until step k is played. */
export function playTo(state: FlowState, k: number): void {
  expect(k).toBeGreaterThanOrEqual(state.step);
  while (state.step < k) give(state, { t: 'next' }, STEADY);
}

/** Next until the next round's declarations. */
export function toNextRound(state: FlowState): void {
  const round = state.round;
  for (let guard = 0; state.round === round || state.stage !== 'declare'; guard++) {
    if (guard > 100) throw new Error('no next round');
    give(state, { t: 'next' }, STEADY);
  }
}
