/**
 * A fallen target (issue 28, rules revision 5): when the target an attacker
 * declared (or turned to) is dead, fled or surrendered by the time the
 * attacker's blow comes, the attack waits for its owner's choice — the
 * `retarget` input:
 *  - `target`: another opponent still standing (not fallen; the engine knows no
 *    positions, so "in reach" is the owner's word, as a melee's reach is
 *    everywhere else in the flow);
 *  - `hold`: the attack is kept: one attack (grant 'held') in this step or any
 *    later one of the round, at a standing target;
 *  - `none`: it does nothing more with this action this round.
 *
 * RULING (issue 28; the seeds are silent: each assumes a target that is still
 * there): the owner (the GM for monsters) chooses, the engine never picks;
 * until chosen, its scheduled attacks are refused in words (AttackWaitsForChoice)
 * and the step may still be left (the attack then lapses, as any attack not made
 * in its step does). Out-of-turn attacks the procedure grants are not held back.
 * The scenario runner and the odds' trials choose for themselves when a script
 * gives no choice (play.ts, odds/trial.ts): the nearest standing opponent.
 */
import type { Problem } from '../model';
import type { Procedure, ProcedureOptions } from '../procedure';
import { actionRefusedBy, cannotActProblem, engineDecidesActing, fallenReason } from './acting';
import { combatantOf, nameOf, type FlowState } from './state';
import { ATTACK_ACTIONS, ableState } from './attack';

type P = Procedure<ProcedureOptions>;

/** The choice made (retarget input): another target, hold, or nothing. */
export type RetargetChoice = 'target' | 'hold' | 'none';

/** The `retarget` input: the attacker `c` whose target fell chooses. `target` with choice 'target'. */
export interface RetargetInput {
  t: 'retarget';
  c: string;
  choice: RetargetChoice;
  target?: string;
}

/** A choice made this round (FlowState.retargets), with the step being played then. */
export interface FlowRetarget {
  c: string;
  step: number;
  choice: RetargetChoice;
  target?: string;
}

const CHOICES: readonly RetargetChoice[] = ['target', 'hold', 'none'];

/** The last choice `id` made this round, if any. */
export function retargetOf(state: FlowState, id: string): FlowRetarget | undefined {
  const list = state.retargets;
  if (!list) return undefined;
  for (let i = list.length - 1; i >= 0; i--) if (list[i].c === id) return list[i];
  return undefined;
}

/** Whom `id` aims at now: the target it turned to, else the one its action (declared or released) names. */
export function aimOf(state: FlowState, id: string): string | undefined {
  const chosen = retargetOf(state, id);
  if (chosen?.choice === 'target') return chosen.target;
  const release = state.midRound?.find((r) => r.t === 'release' && r.c === id);
  return release?.t === 'release' ? release.d.target : state.declarations[id]?.target;
}

/**
 * The fallen target `id` aims at, where its attack waits for a choice (rules
 * revision 5): its aim is dead, fled or surrendered and it has not chosen
 * to hold or do nothing this round. Undefined: nothing waits.
 */
export function waitingTarget(state: FlowState, id: string): string | undefined {
  if (!engineDecidesActing(state)) return undefined;
  const chosen = retargetOf(state, id);
  if (chosen && chosen.choice !== 'target') return undefined;
  // Only a blow waits: a flight, a spell or any other action named at someone who fell goes on as it is.
  const release = state.midRound?.find((r) => r.t === 'release' && r.c === id);
  const action = release?.t === 'release' ? release.d.action : state.declarations[id]?.action;
  if (!chosen && (action === undefined || !ATTACK_ACTIONS.has(action))) return undefined;
  const aim = aimOf(state, id);
  if (aim === undefined || aim === id) return undefined;
  return fallenReason(state.states[aim]) !== null ? aim : undefined;
}

function malformed(input: RetargetInput): boolean {
  return (
    !input ||
    typeof input !== 'object' ||
    typeof input.c !== 'string' ||
    !CHOICES.includes(input.choice) ||
    (input.choice === 'target' ? typeof input.target !== 'string' : input.target !== undefined)
  );
}

/** Null if this choice can be made now, else the reason. */
export function retargetProblem(state: FlowState, input: RetargetInput, procedure: P): Problem | null {
  if (malformed(input)) return { key: 'MalformedRequest' };
  const c = combatantOf(state, input.c);
  if (!c || !state.states[c.id]) return { key: 'UnknownCombatant', data: { id: String(input.c) } };
  if (!engineDecidesActing(state)) return { key: 'RetargetNotInRules', data: { name: c.name } };
  if (state.stage !== 'resolve' || !state.schedule?.steps[state.step]) return { key: 'MidRoundOutsideRound', data: { name: c.name } };
  // Able as it acts in this step (attack.ts ableState: felled in this same step, it still acts — README ruling, simultaneous actions).
  if (!ableState(state, c.id, procedure)) return cannotActProblem(state, c.id, actionRefusedBy(state, c.id, undefined, procedure) ?? 'dead');
  const fallen = waitingTarget(state, c.id);
  if (fallen === undefined) return { key: 'RetargetNotNeeded', data: { name: c.name } };
  if (input.choice === 'target') {
    const t = combatantOf(state, input.target as string);
    if (!t || t.id === c.id || t.side === c.side || fallenReason(state.states[t.id]) !== null) {
      return { key: 'RetargetTargetInvalid', data: { name: c.name, target: nameOf(state, String(input.target)) } };
    }
  }
  return null;
}

/** The `retarget` input: checked, then recorded. */
export function applyRetarget(state: FlowState, input: RetargetInput, procedure: P): { ok: true } | { ok: false; problem: Problem } {
  const problem = retargetProblem(state, input, procedure);
  if (problem) return { ok: false, problem };
  const record: FlowRetarget = { c: input.c, step: state.step, choice: input.choice };
  if (input.choice === 'target') record.target = input.target;
  (state.retargets ??= []).push(record);
  return { ok: true };
}
